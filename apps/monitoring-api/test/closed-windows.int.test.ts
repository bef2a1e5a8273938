/**
 * Closed feed windows through a listening server on real PostgreSQL (and Redis when REDIS_URL
 * is set) (docs/api.md "Compression and HTTP caching"; docs/decisions.md "D160. Closed feed
 * windows and the indexer's watermark", "D161. Where closed pages are kept"): a window whose
 * `end_time` is at or below every configured chain's confirmed time is rendered once per page,
 * cursor pages included, and answered as immutable with no further query; a window above the
 * watermark (a lagging chain) is never kept, so a record the lagging chain adds later shows; a
 * page with a pending record is not kept by an app without a live feed (closed-windows-pending
 * tests the kept ones); without configured chains nothing is closed. Queries
 * are counted through the database handle's statement observer; time moves by the app's injected clock.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseConfig } from '@ctss/server-kit';
import request from 'supertest';
import { ConfigSchema } from '../src/config.js';
import { CLOSED_WINDOW_CACHE_CONTROL } from '../src/transactions/closed-windows.js';
import { WATERMARK_REFRESH_MS } from '../src/transactions/watermark.js';
import { aTransaction, insertAll } from './support/builders.js';
import { setConfirmed } from './support/cursors.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { TEST_NOW } from './support/deps.js';
import { serveApp, type ServedApp } from './support/served-app.js';

const HOUR = 3_600;
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** Start of the hour 48 hours before now: the windows of the walk below. */
const FIRST_HOUR = Math.floor(NOW_S / HOUR) * HOUR - 48 * HOUR;

const ENV = {
  HTTP_COMPRESSION: 'false',
  FEED_FIRST_PAGE_CACHE_SECONDS: '0',
  FEED_INDEXED_CHAINS: 'mainnet:0,mainnet:6',
  // Shared by both replicas below (one Redis namespace).
  REDIS_PREFIX: `ctss:test:${randomBytes(6).toString('hex')}:`,
};

let db: TestDatabase;
let s: ServedApp;

beforeAll(async () => {
  db = await createTestDatabase();
  // Five records per hour over the last 48 hours, from domains 0 and 6.
  await insertAll(
    db.database,
    Array.from({ length: 48 * 5 }, (_, i) =>
      aTransaction({
        source_domain: i % 2 === 0 ? 0 : 6,
        created_at: new Date((FIRST_HOUR + Math.floor(i / 5) * HOUR + (i % 5) * 600) * 1000),
      }),
    ),
  );
  s = await serveApp(db, ENV);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await db?.drop();
});

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  request(base).get(path).set(headers);

type Page = { transactions: { id: number }[]; next_cursor: string; has_more: boolean };

/** Every page of a window, 2 records per page: the answers in order. */
async function walk(base: string, start: number, end: number): Promise<request.Response[]> {
  const pages: request.Response[] = [];
  let cursor = '';
  for (;;) {
    const res = await get(
      base,
      `/transactionsmainnet?limit=2&start_time=${start}&end_time=${end}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status).toBe(200);
    pages.push(res);
    const page = res.body as Page;
    if (!page.has_more) return pages;
    cursor = page.next_cursor;
  }
}

describe('FEED_INDEXED_CHAINS', () => {
  it('is empty by default (no window is closed) and takes network:domain entries', () => {
    expect(parseConfig(ConfigSchema, {}).FEED_INDEXED_CHAINS).toEqual([]);
    expect(
      parseConfig(ConfigSchema, { FEED_INDEXED_CHAINS: 'mainnet:0, testnet:6' })
        .FEED_INDEXED_CHAINS,
    ).toEqual([
      { network: 'mainnet', domain: 0 },
      { network: 'testnet', domain: 6 },
    ]);
    expect(() => parseConfig(ConfigSchema, { FEED_INDEXED_CHAINS: 'mainnet' })).toThrow(
      /FEED_INDEXED_CHAINS/,
    );
  });
});

describe('a window above the watermark', () => {
  it('is never kept: a lagging chain adds a record inside it, and it shows', async () => {
    // Domain 0 is indexed up to now; domain 6 lags 30 hours behind.
    await setConfirmed(db.knex, 0, NOW_S);
    await setConfirmed(db.knex, 6, NOW_S - 30 * HOUR);
    s.advance(WATERMARK_REFRESH_MS);
    const start = FIRST_HOUR + 24 * HOUR;
    const path = `/transactionsmainnet?limit=100&start_time=${start}&end_time=${start + HOUR}`;

    const before = s.queries();
    const first = await get(s.base, path);
    const again = await get(s.base, path);
    expect(s.queries()).toBe(before + 2);
    expect(first.headers['cache-control']).not.toBe(CLOSED_WINDOW_CACHE_CONTROL);
    expect((first.body as Page).transactions).toHaveLength(5);
    expect(again.headers.etag).toBe(first.headers.etag);

    // The lagging chain reaches the window and writes a record in it, then passes it.
    const [added] = await insertAll(db.database, [
      aTransaction({ source_domain: 6, created_at: new Date((start + 30) * 1000) }),
    ]);
    await setConfirmed(db.knex, 6, start + 2 * HOUR);
    s.advance(WATERMARK_REFRESH_MS);

    const closed = await get(s.base, path);
    expect(closed.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
    expect((closed.body as Page).transactions.map((r) => r.id)).toContain(added);
    expect(closed.headers.etag).not.toBe(first.headers.etag);
    const queried = s.queries();
    const kept = await get(s.base, path, { 'If-None-Match': closed.headers.etag! });
    expect(kept.status).toBe(304);
    expect(s.queries()).toBe(queried);
  });
});

describe('the last 48 hours re-read as 1-hour windows (a DefiLlama run)', () => {
  it('costs no feed query for the closed hours on the second run, cursor pages included', async () => {
    await setConfirmed(db.knex, 0, NOW_S);
    await setConfirmed(db.knex, 6, NOW_S - 3 * HOUR);
    s.advance(WATERMARK_REFRESH_MS);
    const hours = Array.from({ length: 48 }, (_, i) => FIRST_HOUR + i * HOUR);
    const run = async (base: string) => {
      const answers: request.Response[][] = [];
      for (const start of hours) answers.push(await walk(base, start, start + HOUR));
      return answers;
    };
    const closedHours = hours.filter((start) => start + HOUR <= NOW_S - 3 * HOUR).length;
    const openHours = hours.length - closedHours;

    await run(s.base);
    const before = s.queries();
    const second = await run(s.base);
    // Only the open hours (above the lagging chain) are read again: 3 pages each.
    expect(s.queries() - before).toBe(openHours * 3);
    for (const [i, pages] of second.entries()) {
      const immutable = hours[i]! + HOUR <= NOW_S - 3 * HOUR;
      for (const page of pages) {
        expect(page.headers['cache-control'] === CLOSED_WINDOW_CACHE_CONTROL).toBe(immutable);
      }
    }

    if (process.env.REDIS_URL) {
      // Another replica sharing Redis answers the closed hours without a query too.
      const other = await serveApp(db, ENV);
      try {
        other.advance(WATERMARK_REFRESH_MS);
        const third = await run(other.base);
        expect(other.queries()).toBe(openHours * 3);
        expect(third.map((pages) => pages.map((p) => p.headers.etag))).toEqual(
          second.map((pages) => pages.map((p) => p.headers.etag)),
        );
        // The bytes kept in Redis, sent as they are, are the rendered page's bytes.
        expect(third.map((pages) => pages.map((p) => p.text))).toEqual(
          second.map((pages) => pages.map((p) => p.text)),
        );
        expect(third.flat().map((p) => p.headers['content-length'])).toEqual(
          second.flat().map((p) => p.headers['content-length']),
        );
      } finally {
        await other.close();
      }
    }
  }, 60_000);
});

describe('a closed window with a pending record, without a live feed', () => {
  it('is served but not kept until the record settles', async () => {
    await setConfirmed(db.knex, 0, NOW_S);
    await setConfirmed(db.knex, 6, NOW_S);
    s.advance(WATERMARK_REFRESH_MS);
    const start = FIRST_HOUR - 10 * HOUR;
    await insertAll(db.database, [
      aTransaction({
        created_at: new Date((start + 10) * 1000),
        destination_tx_status: 'pending',
        destination_tx_hash: null,
      }),
    ]);
    const path = `/transactionsmainnet?start_time=${start}&end_time=${start + HOUR}`;
    const before = s.queries();
    const first = await get(s.base, path);
    await get(s.base, path);
    expect(s.queries()).toBe(before + 2);
    expect(first.headers['cache-control']).not.toBe(CLOSED_WINDOW_CACHE_CONTROL);
  });

  it('on testnet, whose records do not show their status, is not kept either', async () => {
    const testnet = await serveApp(db, { ...ENV, FEED_INDEXED_CHAINS: 'testnet:0' });
    try {
      await setConfirmed(db.knex, 0, NOW_S, 'testnet');
      const start = FIRST_HOUR - 20 * HOUR;
      await insertAll(db.database, [
        aTransaction({
          network: 'testnet',
          created_at: new Date((start + 10) * 1000),
          destination_tx_status: 'pending',
          destination_tx_hash: null,
        }),
      ]);
      testnet.advance(WATERMARK_REFRESH_MS);
      const path = `/transactions?start_time=${start}&end_time=${start + HOUR}`;
      const first = await get(testnet.base, path);
      await get(testnet.base, path);
      expect((first.body as Page).transactions).toHaveLength(1);
      expect(testnet.queries()).toBe(2);
      expect(first.headers['cache-control']).not.toBe(CLOSED_WINDOW_CACHE_CONTROL);
    } finally {
      await testnet.close();
    }
  });
});

describe('without configured chains (the seeded demo)', () => {
  it('closes no window', async () => {
    const plain = await serveApp(db, { ...ENV, FEED_INDEXED_CHAINS: '' });
    try {
      const path = `/transactionsmainnet?start_time=${FIRST_HOUR}&end_time=${FIRST_HOUR + HOUR}`;
      const res = await get(plain.base, path);
      await get(plain.base, path);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(plain.queries()).toBe(2);
    } finally {
      await plain.close();
    }
  });
});
