/**
 * Closed feed pages holding a pending record (docs/decisions.md "D310. Closed pages holding a
 * pending record"; docs/api.md "Compression and HTTP caching"), through two listening replicas
 * with their live feeds on real PostgreSQL (sharing Redis when REDIS_URL is set, whose fan-out then
 * carries the changes): such a page is kept and served without a query, with its ETag and a
 * revalidating `Cache-Control`, until the stuck record settles; the change, written to the
 * change log like the indexer's, makes every replica render the page again, now settled and
 * immutable. Queries are counted through each database handle's statement observer; each app's
 * clock moves by hand.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Knex } from 'knex';
import request from 'supertest';
import {
  CHANGE_GRACE_MS,
  CLOSED_WINDOW_CACHE_CONTROL,
  PENDING_CLOSED_PAGE_CACHE_CONTROL,
} from '../src/transactions/closed-windows.js';
import { WATERMARK_REFRESH_MS } from '../src/transactions/watermark.js';
import { aTransaction, insertAll } from './support/builders.js';
import { commitWithLostChange } from './support/change-log.js';
import { setConfirmed } from './support/cursors.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { TEST_NOW } from './support/deps.js';
import { serveApp, type ServedApp } from './support/served-app.js';
import { getWire } from './support/wire.js';

const HOUR = 3_600;
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** A closed hour, two days ago. */
const START = Math.floor(NOW_S / HOUR) * HOUR - 48 * HOUR;
const PATH = `/transactionsmainnet?limit=100&start_time=${START}&end_time=${START + HOUR}`;
const STUCK_HASH = `0x${'5'.repeat(64)}`;

const ENV = {
  HTTP_COMPRESSION: 'false',
  FEED_FIRST_PAGE_CACHE_SECONDS: '0',
  FEED_INDEXED_CHAINS: 'mainnet:0',
  // Shared by both replicas (one Redis namespace: the closed pages, the fan-out's lease and channel).
  REDIS_PREFIX: `ctss:test:${randomBytes(6).toString('hex')}:`,
};

let db: TestDatabase;
let a: ServedApp;
let b: ServedApp;

type Page = { transactions: { source_tx_hash: string; destination_tx_status: string }[] };

/** Sets domain 0's cursor as the indexer writes it, confirmed up to now. */
const confirmNow = (knex: Knex): Promise<void> => setConfirmed(knex, 0, NOW_S);

/** A settled record and a pending one (`hash`) in the hour from `start` (UNIX seconds). */
const hourWithPending = (start: number, hash: string) => [
  aTransaction({ created_at: new Date((start + 60) * 1000) }),
  aTransaction({
    source_tx_hash: hash,
    created_at: new Date((start + 30) * 1000),
    destination_tx_status: 'pending',
    destination_tx_hash: null,
  }),
];

/** Waits until `app`'s live feed has delivered the change log up to its end. */
async function caughtUp(app: ServedApp): Promise<void> {
  const [{ seq }] = (
    await db.knex.raw<{ rows: [{ seq: string }] }>(
      'select coalesce(max(seq), 0)::text as seq from transaction_changes',
    )
  ).rows;
  for (let i = 0; i < 800; i++) {
    if (BigInt(app.live!.health().last_event_id) >= BigInt(seq)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the live feed did not reach change ${seq}`);
}

beforeAll(async () => {
  db = await createTestDatabase();
  await insertAll(db.database, [
    ...Array.from({ length: 5 }, (_, i) =>
      aTransaction({ created_at: new Date((START + 60 + i * 600) * 1000) }),
    ),
    aTransaction({
      source_tx_hash: STUCK_HASH,
      created_at: new Date((START + 30) * 1000),
      destination_tx_status: 'pending',
      destination_tx_hash: null,
      has_attestation_error: true,
    }),
  ]);
  await confirmNow(db.knex);
  a = await serveApp(db, ENV, { poolMax: 4 }, { withLiveFeed: true });
  b = await serveApp(db, ENV, { poolMax: 4 }, { withLiveFeed: true });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

describe('a closed page holding a stuck pending record', () => {
  it('is kept and revalidated until the record settles, then replaced on every replica', async () => {
    // Pages read in the replicas' first moments are not vouched for: changes before the live
    // feed started (or a lagging read) could be missing.
    for (const app of [a, b]) app.advance(CHANGE_GRACE_MS + WATERMARK_REFRESH_MS);

    const first = await request(a.base).get(PATH);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe(PENDING_CLOSED_PAGE_CACHE_CONTROL);
    const stuck = (first.body as Page).transactions.find((r) => r.source_tx_hash === STUCK_HASH);
    expect(stuck?.destination_tx_status).toBe('pending');
    expect(a.queries()).toBe(1);

    // Kept: again from A's memory, and from Redis (when shared) on B.
    const again = await request(a.base).get(PATH);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(a.queries()).toBe(1);
    const onB = await request(b.base).get(PATH);
    expect(onB.headers.etag).toBe(first.headers.etag);
    expect(onB.headers['cache-control']).toBe(PENDING_CLOSED_PAGE_CACHE_CONTROL);
    expect(b.queries()).toBe(process.env.REDIS_URL ? 0 : 1);
    const revalidated = await request(b.base).get(PATH).set('If-None-Match', first.headers.etag!);
    expect(revalidated.status).toBe(304);
    expect(b.queries()).toBe(process.env.REDIS_URL ? 0 : 1);

    // The relay lands: the indexer's update writes the change log.
    await db
      .knex('transactions')
      .where({ source_tx_hash: STUCK_HASH })
      .update({
        destination_tx_status: 'success',
        destination_tx_hash: `0x${'6'.repeat(64)}`,
        has_attestation_error: false,
        received_at: new Date((NOW_S - 60) * 1000),
      });
    await caughtUp(a);
    await caughtUp(b);

    const settledOnB = await request(b.base).get(PATH).set('If-None-Match', first.headers.etag!);
    expect(settledOnB.status).toBe(200);
    expect(settledOnB.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
    expect(settledOnB.headers.etag).not.toBe(first.headers.etag);
    const settled = (settledOnB.body as Page).transactions.find(
      (r) => r.source_tx_hash === STUCK_HASH,
    );
    expect(settled?.destination_tx_status).toBe('success');
    const bQueries = b.queries();

    const settledOnA = await request(a.base).get(PATH);
    expect(settledOnA.headers.etag).toBe(settledOnB.headers.etag);
    expect(settledOnA.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
    // With Redis, B's settled copy replaced the pending one for A too.
    expect(a.queries()).toBe(process.env.REDIS_URL ? 1 : 2);

    // Settled pages are immutable: no further query anywhere.
    const aQueries = a.queries();
    await request(a.base).get(PATH);
    await request(b.base).get(PATH);
    expect(a.queries()).toBe(aQueries);
    expect(b.queries()).toBe(bQueries);
  }, 60_000);
});

describe('a replica started after the pending page was kept', () => {
  const start = START - 24 * HOUR;
  const path = `/transactionsmainnet?limit=100&start_time=${start}&end_time=${start + HOUR}`;
  const hash = `0x${'7'.repeat(64)}`;

  /** A fresh replica whose clock starts past the others' (it has received no change yet). */
  const fresh = () =>
    serveApp(
      db,
      ENV,
      { poolMax: 4 },
      { withLiveFeed: true, clockMs: TEST_NOW.getTime() + 10 * CHANGE_GRACE_MS },
    );

  (process.env.REDIS_URL ? it : it.skip)(
    'serves it while the record is unchanged and renders it again once it changed, by the changes kept in Redis',
    async () => {
      await insertAll(db.database, hourWithPending(start, hash));
      // Their insertion is a change too: the page is rendered past it.
      await caughtUp(a);
      await caughtUp(b);
      for (const app of [a, b]) app.advance(CHANGE_GRACE_MS + 1);
      const kept = await request(a.base).get(path);
      expect(kept.headers['cache-control']).toBe(PENDING_CLOSED_PAGE_CACHE_CONTROL);

      const c = await fresh();
      try {
        const fromRedis = await request(c.base).get(path);
        expect(fromRedis.headers.etag).toBe(kept.headers.etag);
        expect(c.queries()).toBe(0);
      } finally {
        await c.close();
      }

      // The record settles while A and B run; a replica started afterwards never saw the change.
      await db
        .knex('transactions')
        .where({ source_tx_hash: hash })
        .update({
          destination_tx_status: 'success',
          destination_tx_hash: `0x${'8'.repeat(64)}`,
        });
      await caughtUp(a);
      await caughtUp(b);
      const d = await fresh();
      try {
        const res = await request(d.base).get(path);
        expect(d.queries()).toBe(1);
        expect(res.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
        const record = (res.body as Page).transactions.find((r) => r.source_tx_hash === hash);
        expect(record?.destination_tx_status).toBe('success');
      } finally {
        await d.close();
      }
    },
    60_000,
  );
});

describe('a pending page asked for in gzip', () => {
  const start = START - 96 * HOUR;
  const path = `/transactionsmainnet?limit=100&start_time=${start}&end_time=${start + HOUR}`;
  const hash = `0x${'b'.repeat(64)}`;

  it('is sent as its kept compressed copy while the record is unchanged, and made again after', async () => {
    // A replica with compression on (the others have it off), its clock past the others'.
    const c = await serveApp(
      db,
      { ...ENV, HTTP_COMPRESSION: 'true' },
      { poolMax: 4 },
      { withLiveFeed: true, clockMs: TEST_NOW.getTime() + 20 * CHANGE_GRACE_MS },
    );
    try {
      await insertAll(db.database, hourWithPending(start, hash));
      await caughtUp(c);
      c.advance(CHANGE_GRACE_MS + 1);
      const gzip = { 'Accept-Encoding': 'gzip' };
      const first = await getWire(c.base, path, gzip);
      expect(first.headers['cache-control']).toBe(PENDING_CLOSED_PAGE_CACHE_CONTROL);
      expect(first.headers['content-encoding']).toBe('gzip');
      // The kept copy goes out whole, with its length (the middleware would stream it chunked).
      expect(Number(first.headers['content-length'])).toBe(first.body.length);
      const queried = c.queries();
      const again = await getWire(c.base, path, gzip);
      expect(again.body.equals(first.body)).toBe(true);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(c.queries()).toBe(queried);

      await db
        .knex('transactions')
        .where({ source_tx_hash: hash })
        .update({ destination_tx_status: 'success', destination_tx_hash: `0x${'c'.repeat(64)}` });
      await caughtUp(c);
      const settled = await getWire(c.base, path, gzip);
      expect(c.queries()).toBe(queried + 1);
      expect(settled.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
      expect(settled.headers.etag).not.toBe(first.headers.etag);
      const page = JSON.parse(gunzipSync(settled.body).toString('utf8')) as Page;
      expect(page.transactions.find((r) => r.source_tx_hash === hash)?.destination_tx_status).toBe(
        'success',
      );
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('a change lost to the change log retention', () => {
  const start = START - 72 * HOUR;
  const path = `/transactionsmainnet?limit=100&start_time=${start}&end_time=${start + HOUR}`;
  const hash = `0x${'9'.repeat(64)}`;
  const filler = `0x${'a'.repeat(64)}`;

  it('makes every replica render the kept pending page again instead of vouching for it', async () => {
    await insertAll(db.database, [
      ...hourWithPending(start, hash),
      aTransaction({ source_tx_hash: filler, created_at: new Date((START + 90) * 1000) }),
    ]);
    await caughtUp(a);
    await caughtUp(b);
    for (const app of [a, b]) app.advance(CHANGE_GRACE_MS + 1);
    for (const app of [a, b]) {
      const kept = await request(app.base).get(path);
      expect(kept.headers['cache-control']).toBe(PENDING_CLOSED_PAGE_CACHE_CONTROL);
      const queries = app.queries();
      await request(app.base).get(path);
      expect(app.queries()).toBe(queries);
    }

    // The record settles in a change no live feed reads (the retention deleted it).
    await commitWithLostChange(
      db.knex,
      {
        sourceTxHash: hash,
        set: { destination_tx_status: 'success', destination_tx_hash: `0x${'b'.repeat(64)}` },
      },
      { sourceTxHash: filler, set: { has_attestation_error: true } },
    );
    await caughtUp(a);
    await caughtUp(b);
    // A renders the page again; B too, or with Redis takes A's new rendering from it.
    for (const [app, rendered] of [
      [a, 1],
      [b, process.env.REDIS_URL ? 0 : 1],
    ] as const) {
      const queries = app.queries();
      const res = await request(app.base).get(path);
      expect(app.queries()).toBe(queries + rendered);
      expect(res.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
      const record = (res.body as Page).transactions.find((r) => r.source_tx_hash === hash);
      expect(record?.destination_tx_status).toBe('success');
    }
  }, 60_000);
});
