/**
 * The in-process first-page cache through a listening server on real PostgreSQL (docs/api.md
 * "Compression and HTTP caching"; docs/decisions.md "D63. In-process first-page cache"): within
 * `FEED_FIRST_PAGE_CACHE_SECONDS` of its query a first page is answered, 200 or 304, with no
 * database query and its age in `Age`; after that it is read again; cursor pages and lookups are
 * always read; concurrent misses share one query; a failed query is not kept; 0 turns it off.
 * Queries are counted through the database handle's statement observer; time moves by the app's injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseConfig } from '@ctss/server-kit';
import request from 'supertest';
import { ConfigSchema } from '../src/config.js';
import { aTransaction, insertAll } from './support/builders.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { TEST_NOW } from './support/deps.js';
import { serveApp, type ServedApp } from './support/served-app.js';

/** Statement timeout of the app's pool, ms: a locked table gives a 503 within it. */
const STATEMENT_TIMEOUT_MS = 1_000;

/** Serves the app with `env` on a pool that pipelines and times statements out. */
const serve = (db: TestDatabase, env: Record<string, string> = {}): Promise<ServedApp> =>
  serveApp(db, env, { poolMax: 4, pipelineLanes: 2, statementTimeoutMs: STATEMENT_TIMEOUT_MS });

let db: TestDatabase;
let s: ServedApp;

beforeAll(async () => {
  db = await createTestDatabase();
  await insertAll(
    db.database,
    Array.from({ length: 30 }, (_, i) =>
      aKnownTransaction(new Date(TEST_NOW.getTime() - (i + 1) * 60_000)),
    ),
  );
  s = await serve(db, { HTTP_COMPRESSION: 'false' });
}, 60_000);

afterAll(async () => {
  await s?.close();
  await db?.drop();
});

/** A mainnet record created at `at`. */
function aKnownTransaction(at: Date) {
  return aTransaction({ created_at: at });
}

/** GET `path` (headers optional) from the served app. */
const get = (path: string, headers: Record<string, string> = {}) =>
  request(s.base).get(path).set(headers);

/** The ids of a page's records. */
const ids = (res: request.Response) =>
  (res.body as { transactions: { id: number }[] }).transactions.map((r) => r.id);

describe('FEED_FIRST_PAGE_CACHE_SECONDS', () => {
  it('defaults to the first page max-age (5) and refuses more, since no copy may outlive it', () => {
    expect(parseConfig(ConfigSchema, {}).FEED_FIRST_PAGE_CACHE_SECONDS).toBe(5);
    expect(
      parseConfig(ConfigSchema, { FEED_FIRST_PAGE_CACHE_SECONDS: '0' })
        .FEED_FIRST_PAGE_CACHE_SECONDS,
    ).toBe(0);
    expect(() => parseConfig(ConfigSchema, { FEED_FIRST_PAGE_CACHE_SECONDS: '6' })).toThrow(
      /FEED_FIRST_PAGE_CACHE_SECONDS/,
    );
  });
});

describe('a first page polled within its max-age', () => {
  it('is answered from memory, 304 or 200, with no query and its age in Age', async () => {
    const before = s.queries();
    const first = await get('/transactionsmainnet?limit=4');
    expect(first.status).toBe(200);
    expect(first.headers.age).toBeUndefined();
    expect(s.queries()).toBe(before + 1);
    const tag = first.headers.etag!;

    s.advance(3_400);
    const polled = await get('/transactionsmainnet?limit=4', { 'If-None-Match': tag });
    expect(polled.status).toBe(304);
    expect(polled.headers.etag).toBe(tag);
    expect(polled.headers['cache-control']).toBe('public, max-age=5');
    expect(polled.headers.age).toBe('4');
    const plain = await get('/transactionsmainnet?limit=4');
    expect(plain.status).toBe(200);
    expect(plain.text).toBe(first.text);
    expect(plain.headers.etag).toBe(tag);
    expect(plain.headers.age).toBe('4');
    // Another spelling of the same validated query shares the copy.
    const respelled = await get('/transactionsmainnet?limit=4&cursor=', { 'If-None-Match': tag });
    expect(respelled.status).toBe(304);
    expect(s.queries()).toBe(before + 1);
    s.advance(1_600);
  });

  it('shows a change in the data once the copy is max-age old, not before', async () => {
    const first = await get('/transactionsmainnet?limit=3');
    const tag = first.headers.etag!;
    const before = s.queries();
    const [newest] = await insertAll(db.database, [aKnownTransaction(TEST_NOW)]);

    s.advance(4_999);
    const stillOld = await get('/transactionsmainnet?limit=3', { 'If-None-Match': tag });
    expect(stillOld.status).toBe(304);
    expect(s.queries()).toBe(before);

    s.advance(1);
    const fresh = await get('/transactionsmainnet?limit=3', { 'If-None-Match': tag });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.etag).not.toBe(tag);
    expect(fresh.headers.age).toBeUndefined();
    expect(ids(fresh)[0]).toBe(newest);
    expect(s.queries()).toBe(before + 1);
    s.advance(5_000);
  });

  it('keeps one copy per network, page size and filter', async () => {
    const before = s.queries();
    const paths = [
      '/transactionsmainnet?limit=2',
      '/transactions?limit=2',
      '/transactionsmainnet?limit=2&status=success',
      '/transactionsmainnet?limit=2&status=pending',
    ];
    for (const path of paths) expect((await get(path)).status).toBe(200);
    for (const path of paths) expect((await get(path)).headers.age).toBe('0');
    expect(s.queries()).toBe(before + paths.length);
    s.advance(5_000);
  });
});

describe('pages the cache never keeps', () => {
  it('reads every cursor page and every lookup from the database', async () => {
    const first = await get('/transactionsmainnet?limit=2');
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    const hash = (first.body as { transactions: { source_tx_hash: string }[] }).transactions[0]!
      .source_tx_hash;
    const before = s.queries();
    for (const path of [
      `/transactionsmainnet?limit=2&cursor=${cursor}`,
      `/transactionsmainnet/${hash}`,
    ]) {
      const one = await get(path);
      const again = await get(path, { 'If-None-Match': one.headers.etag! });
      expect([one.status, again.status]).toEqual([200, 304]);
      expect(again.headers.age).toBeUndefined();
    }
    expect(s.queries()).toBe(before + 4);
    s.advance(5_000);
  });
});

describe('concurrent misses and failures', () => {
  it('runs one query for concurrent requests of an uncached first page', async () => {
    const before = s.queries();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get('/transactionsmainnet?limit=7')),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(s.queries()).toBe(before + 1);
    s.advance(5_000);
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'answers a failed query with the 503 problem, keeps nothing, and reads again at once',
    async () => {
      const path = '/transactionsmainnet?limit=6';
      const lock = await db.knex.transaction();
      let answers: request.Response[];
      const before = s.queries();
      try {
        await lock.raw('lock table transactions in access exclusive mode');
        answers = await Promise.all(Array.from({ length: 5 }, () => get(path)));
      } finally {
        await lock.rollback();
      }
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
        expect(res.headers['retry-after']).toBeDefined();
        expect(res.headers.etag).toBeUndefined();
      }
      expect(s.queries()).toBe(before + 1);
      // Same clock instant: a stored failure would answer again; the page is read instead.
      const after = await get(path);
      expect(after.status).toBe(200);
      expect(after.headers.age).toBeUndefined();
      expect(ids(after)).toHaveLength(6);
      expect(s.queries()).toBe(before + 2);
    },
    30_000,
  );
});

describe('with FEED_FIRST_PAGE_CACHE_SECONDS=0', () => {
  let off: ServedApp;
  beforeAll(async () => {
    off = await serve(db, { FEED_FIRST_PAGE_CACHE_SECONDS: '0' });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('reads every first page from the database and sends no Age', async () => {
    const before = off.queries();
    const first = await request(off.base).get('/transactionsmainnet?limit=4');
    const again = await request(off.base)
      .get('/transactionsmainnet?limit=4')
      .set('If-None-Match', first.headers.etag!);
    expect([first.status, again.status]).toEqual([200, 304]);
    expect(again.headers.age).toBeUndefined();
    expect(off.queries()).toBe(before + 2);
  });
});
