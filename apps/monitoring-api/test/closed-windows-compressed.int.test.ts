/**
 * Closed pages kept compressed (docs/api.md "Compression and HTTP caching"; docs/decisions.md
 * "D342. Closed pages kept compressed"), through a listening server with compression on, on real
 * PostgreSQL (and Redis when REDIS_URL is set): a settled closed page asked for with `gzip` or
 * `br` is the identity page compressed, with the coding's tag and the immutable lifetime, and
 * costs no feed query once kept; with Redis its compressed copy is what a second replica sends
 * (a copy changed in Redis shows); a page above the watermark, `deflate`, `HEAD` and a client
 * accepting no coding are left to the middleware as before, and a kept page below the compression
 * threshold is sent as it is without a look for a copy in Redis (closed-windows-pending tests the
 * copy of a page holding a pending record).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKvStore, createLogger, type KvStore } from '@ctss/server-kit';
import { waitFor } from '@ctss/test-support';
import { CLOSED_WINDOW_CACHE_CONTROL } from '../src/transactions/closed-windows.js';
import { WATERMARK_REFRESH_MS } from '../src/transactions/watermark.js';
import { aTransaction, insertAll } from './support/builders.js';
import { setConfirmed } from './support/cursors.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { TEST_NOW } from './support/deps.js';
import { serveApp, type ServedApp } from './support/served-app.js';
import { getWire as get } from './support/wire.js';

const HOUR = 3_600;
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** Ten hours of records, ending 20 hours before now: closed once both chains are confirmed. */
const FIRST_HOUR = Math.floor(NOW_S / HOUR) * HOUR - 30 * HOUR;
const DECODE = { gzip: gunzipSync, br: brotliDecompressSync } as const;

const ENV = {
  HTTP_COMPRESSION: 'true',
  FEED_FIRST_PAGE_CACHE_SECONDS: '0',
  FEED_INDEXED_CHAINS: 'mainnet:0,mainnet:6',
  REDIS_PREFIX: `ctss:test:${randomBytes(6).toString('hex')}:`,
};

let db: TestDatabase;
let s: ServedApp;

beforeAll(async () => {
  db = await createTestDatabase();
  // 40 records an hour over ten hours, from domains 0 and 6: pages of 20 are several KiB.
  await insertAll(
    db.database,
    Array.from({ length: 10 * 40 }, (_, i) =>
      aTransaction({
        source_domain: i % 2 === 0 ? 0 : 6,
        created_at: new Date((FIRST_HOUR + Math.floor(i / 40) * HOUR + (i % 40) * 60) * 1000),
      }),
    ),
  );
  await setConfirmed(db.knex, 0, NOW_S);
  await setConfirmed(db.knex, 6, NOW_S);
  s = await serveApp(db, ENV);
  s.advance(WATERMARK_REFRESH_MS);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await db?.drop();
});

/** The path of a closed window's page of 20 records, with `cursor` when given. */
const pagePath = (hour: number, cursor?: string) =>
  `/transactionsmainnet?limit=20&start_time=${FIRST_HOUR + hour * HOUR}&end_time=${FIRST_HOUR + (hour + 1) * HOUR}${cursor ? `&cursor=${cursor}` : ''}`;

/** The strong tag `tag` of the identity body, named after `coding`. */
const codingTag = (tag: string, coding: string) => `${tag.slice(0, -1)}-${coding}"`;

describe.each(['gzip', 'br'] as const)('a settled closed page asked for with %s', (coding) => {
  it('is the identity page compressed, with the coding in its tag, kept without a query', async () => {
    const hour = coding === 'gzip' ? 1 : 2;
    const first = await get(s.base, pagePath(hour));
    const cursor = (JSON.parse(first.body.toString('utf8')) as { next_cursor: string }).next_cursor;
    for (const path of [pagePath(hour), pagePath(hour, cursor)]) {
      const plain = await get(s.base, path);
      expect(plain.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
      expect(plain.body.length).toBeGreaterThan(1024);

      const packed = await get(s.base, path, { 'Accept-Encoding': coding });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(coding);
      expect(packed.headers.etag).toBe(codingTag(plain.headers.etag!, coding));
      expect(packed.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
      expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
      expect(packed.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      expect(DECODE[coding](packed.body).equals(plain.body)).toBe(true);

      const queried = s.queries();
      const again = await get(s.base, path, { 'Accept-Encoding': coding });
      expect(again.body.equals(packed.body)).toBe(true);
      const revalidated = await get(s.base, path, {
        'Accept-Encoding': coding,
        'If-None-Match': packed.headers.etag!,
      });
      expect(revalidated.status).toBe(304);
      expect(s.queries()).toBe(queried);
    }
  });
});

describe('the kept compressed copy', () => {
  it('is what another replica sends: a copy changed in Redis shows', async () => {
    if (!process.env.REDIS_URL) {
      console.warn('REDIS_URL is not set: the shared compressed copy is not tested');
      return;
    }
    const path = pagePath(3);
    const plain = await get(s.base, path);
    const packed = await get(s.base, path, { 'Accept-Encoding': 'gzip' });
    expect(packed.headers['content-encoding']).toBe('gzip');

    const kv = createKvStore({
      redisUrl: process.env.REDIS_URL,
      prefix: ENV.REDIS_PREFIX,
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    try {
      const keys = (await kv.redis!.sendCommand(['KEYS', `${ENV.REDIS_PREFIX}*:gzip`])) as string[];
      // Pages of hours 1 and 3 were asked for with gzip: two first pages and a cursor page.
      expect(keys).toHaveLength(3);
      const replaced = gzipSync('{"replaced":true}');
      let found = 0;
      for (const key of keys.map((k) => k.slice(ENV.REDIS_PREFIX.length))) {
        // As a page is kept: ETag, rendering time, pending hashes, each ended by a newline.
        const value = (await kv.getBytes(key))!;
        const tagEnd = value.indexOf(0x0a);
        const headerEnd = value.indexOf(0x0a, value.indexOf(0x0a, tagEnd + 1) + 1);
        if (value.toString('latin1', 0, tagEnd) !== plain.headers.etag) continue;
        expect(value.toString('latin1', headerEnd - 1, headerEnd + 1)).toBe('\n\n');
        expect(value.subarray(headerEnd + 1).equals(packed.body)).toBe(true);
        found += 1;
        await kv.setBytes(key, Buffer.concat([value.subarray(0, headerEnd + 1), replaced]), 60);
      }
      expect(found).toBe(1);
    } finally {
      await kv.close();
    }

    // No in-process copy on the second replica: it reads the one in Redis and sends it.
    const other = await serveApp(db, { ...ENV, FEED_CLOSED_PAGE_MEMORY_BYTES: '0' });
    try {
      other.advance(WATERMARK_REFRESH_MS);
      const answer = await get(other.base, path, { 'Accept-Encoding': 'gzip' });
      expect(answer.headers.etag).toBe(codingTag(plain.headers.etag!, 'gzip'));
      expect(gunzipSync(answer.body).toString('utf8')).toBe('{"replaced":true}');
      expect(other.queries()).toBe(0);
      // The first replica still has its own copy in process.
      const own = await get(s.base, path, { 'Accept-Encoding': 'gzip' });
      expect(own.body.equals(packed.body)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

/**
 * The commands Redis receives while `during` runs (its `MONITOR` stream, RESP over a plain
 * socket to `url`), in the inline form `"GET" "key"`. A marker command sent through `kv` after
 * `during` bounds the stream, so every command `during` caused is in the list.
 */
async function redisCommandsDuring(
  url: string,
  kv: KvStore,
  during: () => Promise<void>,
): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  const lines: string[] = [];
  const marker = `ctss:test:marker:${randomBytes(6).toString('hex')}`;
  let monitoring: () => void = () => undefined;
  let markerSeen: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (monitoring = resolve));
  const seen = new Promise<void>((resolve) => (markerSeen = resolve));
  createInterface({ input: socket }).on('line', (line) => {
    if (line === '+OK') monitoring();
    else if (line.includes(marker)) markerSeen();
    else lines.push(line);
  });
  try {
    await once(socket, 'connect');
    socket.write('MONITOR\r\n');
    await started;
    await during();
    await kv.redis!.sendCommand(['GET', marker]);
    await seen;
    return lines;
  } finally {
    socket.destroy();
  }
}

describe('a kept page below the compression threshold, asked for with gzip', () => {
  it('is sent as it is, and once kept in process no compressed copy is looked for', async () => {
    const redisUrl = process.env.REDIS_URL;
    const kv = redisUrl
      ? createKvStore({
          redisUrl,
          prefix: ENV.REDIS_PREFIX,
          logger: createLogger({ name: 'test', level: 'silent' }),
        })
      : undefined;
    const keptPages = async () =>
      ((await kv!.redis!.sendCommand(['KEYS', `${ENV.REDIS_PREFIX}feed:closed:*`])) as string[])
        .length;
    const keptBefore = kv ? await keptPages() : 0;
    const path = `/transactionsmainnet?limit=1&start_time=${FIRST_HOUR + 6 * HOUR}&end_time=${FIRST_HOUR + 7 * HOUR}`;
    const plain = await get(s.base, path);
    expect(plain.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
    expect(plain.body.length).toBeLessThan(1024);
    const before = s.queries();

    const ask = async () => {
      const answer = await get(s.base, path, { 'Accept-Encoding': 'gzip' });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.etag).toBe(plain.headers.etag);
      expect(answer.headers['cache-control']).toBe(CLOSED_WINDOW_CACHE_CONTROL);
      expect(answer.body.equals(plain.body)).toBe(true);
    };
    if (!redisUrl || !kv) {
      await ask();
    } else {
      try {
        // The page's write to Redis is not awaited by its answer: watched from when it landed.
        await waitFor(async () => (await keptPages()) === keptBefore + 1);
        const commands = await redisCommandsDuring(redisUrl, kv, ask);
        // The request reached Redis (its rate limit), but never for a page or a copy.
        expect(commands.some((line) => line.includes(`${ENV.REDIS_PREFIX}rl:`))).toBe(true);
        expect(commands.filter((line) => line.includes(`${ENV.REDIS_PREFIX}feed:closed:`))).toEqual(
          [],
        );
      } finally {
        await kv.close();
      }
    }
    expect(s.queries()).toBe(before);
  });
});

describe('what is left to the compression middleware', () => {
  it('a page above the watermark: compressed per request, never kept', async () => {
    const lagging = await serveApp(db, { ...ENV, FEED_INDEXED_CHAINS: 'mainnet:0,mainnet:7' });
    try {
      lagging.advance(WATERMARK_REFRESH_MS);
      const path = pagePath(4);
      const plain = await get(lagging.base, path);
      expect(plain.headers['cache-control']).not.toBe(CLOSED_WINDOW_CACHE_CONTROL);
      const packed = await get(lagging.base, path, { 'Accept-Encoding': 'br' });
      expect(packed.headers['content-encoding']).toBe('br');
      expect(packed.headers.etag).toBe(codingTag(plain.headers.etag!, 'br'));
      expect(brotliDecompressSync(packed.body).equals(plain.body)).toBe(true);
      const before = lagging.queries();
      await get(lagging.base, path, { 'Accept-Encoding': 'br' });
      expect(lagging.queries()).toBe(before + 1);
    } finally {
      await lagging.close();
    }
  });

  it('deflate, HEAD and a client accepting no coding', async () => {
    const path = pagePath(5);
    const plain = await get(s.base, path);
    const deflated = await get(s.base, path, { 'Accept-Encoding': 'deflate' });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(deflated.headers.etag).toBe(codingTag(plain.headers.etag!, 'deflate'));
    const head = await get(s.base, path, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers.etag).toBe(plain.headers.etag);
    expect(head.body.length).toBe(0);
    const identity = await get(s.base, path, { 'Accept-Encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
  });
});
