/**
 * Conditional GET and compression through a listening server (docs/api.md "Compression and HTTP
 * caching"): strong ETags on feed pages, lookups and statistics, `If-None-Match` answered with a
 * bodiless 304, `Cache-Control` per endpoint, gzip and brotli negotiated by `Accept-Encoding`
 * above 1 KiB (a 100-record page several times smaller), a coding-specific ETag, and
 * `HTTP_COMPRESSION=false` sending every body as it is.
 */
import { createServer, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listen } from '@ctss/server-kit';
import { createRng } from '../src/seed/rng.js';
import { aTransaction, insertAll } from './support/builders.js';
import { startTestApp, type TestApp } from './support/app.js';
import { getWire as get } from './support/wire.js';

/** A served test app: its dependencies and the base URL of its listening server. */
interface Served {
  t: TestApp;
  base: string;
}

/**
 * Registers hooks that start the app with `env` on a fresh database holding {@link insertRecords}
 * on a free port before the block's tests, and stop it after them.
 */
function serveApp(env: Record<string, string> = {}): Served {
  const served = {} as Served;
  let server: Server | undefined;
  beforeAll(async () => {
    served.t = await startTestApp({ env });
    await insertRecords(served.t);
    server = createServer(served.t.app);
    served.base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  }, 60_000);
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await served.t?.close();
  });
  return served;
}

/** 120 realistic mainnet records over two days before the test clock (random hashes). */
async function insertRecords(t: TestApp): Promise<void> {
  const rng = createRng(99);
  await insertAll(
    t.db.database,
    Array.from({ length: 120 }, (_, i) =>
      aTransaction({
        source_tx_hash: `0x${rng.hex(64)}`,
        destination_tx_hash: `0x${rng.hex(64)}`,
        sender: `0x${rng.hex(40)}`,
        recipient: `0x${rng.hex(40)}`,
        source_domain: rng.pick([0, 1, 2, 3, 6, 7]),
        deposit_amount: BigInt(rng.int(1_000_000, 9_000_000_000)),
        receive_amount: BigInt(rng.int(1, 999_999)),
        relayer_fee: BigInt(rng.int(0, 500_000)),
        max_fee: BigInt(rng.int(0, 500_000)),
        created_at: new Date(Date.UTC(2026, 10, 19, 12) + i * 1_200_000),
        destination_tx_status: i === 119 ? 'pending' : 'success',
      }),
    ),
  );
}

describe('with compression on (the default)', () => {
  const served = serveApp();

  it('sends a 100-record page several times smaller with gzip and with brotli', async () => {
    const path = '/transactionsmainnet?limit=100';
    const plain = await get(served.base, path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Asked without Accept-Encoding: identity, but shared caches still key on the header.
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.body.length).toBeGreaterThan(60_000);
    for (const [coding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const packed = await get(served.base, path, { 'Accept-Encoding': coding });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(coding);
      expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
      expect(decode(packed.body).equals(plain.body)).toBe(true);
      const ratio = plain.body.length / packed.body.length;
      process.stdout.write(
        `100-record page: ${plain.body.length} bytes, ${coding} ${packed.body.length} bytes (${ratio.toFixed(1)}x smaller)\n`,
      );
      expect(ratio).toBeGreaterThan(3);
    }
  });

  it('prefers brotli when both are accepted and leaves small bodies and HEAD alone', async () => {
    const both = await get(served.base, '/transactionsmainnet?limit=100', {
      'Accept-Encoding': 'gzip, deflate, br',
    });
    expect(both.headers['content-encoding']).toBe('br');
    const small = await get(served.base, '/transactionsmainnet?limit=1', {
      'Accept-Encoding': 'gzip',
    });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['content-length']).toBe(String(small.body.length));
    const none = await get(served.base, '/transactionsmainnet?limit=100', {
      'Accept-Encoding': 'identity',
    });
    expect(none.headers['content-encoding']).toBeUndefined();
  });

  it('gives each coding its own strong ETag and answers each with a 304', async () => {
    const path = '/transactionsmainnet?limit=100';
    const plain = await get(served.base, path);
    const gzip = await get(served.base, path, { 'Accept-Encoding': 'gzip' });
    const br = await get(served.base, path, { 'Accept-Encoding': 'br' });
    const tag = plain.headers.etag!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(gzip.headers.etag).toBe(`${tag.slice(0, -1)}-gzip"`);
    expect(br.headers.etag).toBe(`${tag.slice(0, -1)}-br"`);
    for (const [held, encoding] of [
      [tag, 'identity'],
      [gzip.headers.etag!, 'gzip'],
      [br.headers.etag!, 'br'],
    ]) {
      const again = await get(served.base, path, {
        'If-None-Match': held!,
        'Accept-Encoding': encoding!,
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(held);
      expect(again.headers['cache-control']).toBe('public, max-age=5');
    }
  });
});

describe('conditional GET', () => {
  // First pages rendered on every request: a test here changes records between requests under a
  // fixed clock (the first-page cache has its own tests, first-page-cache.int.test.ts).
  const served = serveApp({
    HTTP_COMPRESSION: 'false',
    CACHE_TTL_SECONDS: '30',
    FEED_FIRST_PAGE_CACHE_SECONDS: '0',
  });

  it('sends bodies uncompressed when HTTP_COMPRESSION is false', async () => {
    const res = await get(served.base, '/transactionsmainnet?limit=100', {
      'Accept-Encoding': 'gzip, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).transactions).toHaveLength(100);
  });

  it.each([
    ['the first feed page', '/transactionsmainnet', 'public, max-age=5'],
    ['a later feed page', '/transactionsmainnet?cursor=1795478400_1000', 'public, max-age=5'],
    // end_time 2026-11-20T00:00:00Z: over a day before the test clock (2026-11-21T12:34:56Z).
    [
      'a closed window',
      '/transactionsmainnet?start_time=1795046400&end_time=1795132800',
      'public, max-age=60',
    ],
    ['a recent window', '/transactions?end_time=1795564800', 'public, max-age=5'],
    ['a settled lookup', null, 'public, max-age=300'],
    ['a pending lookup', null, 'public, max-age=5'],
    ['a statistic', '/stats/mainnet/volumes', 'public, max-age=30'],
    ['a series', '/stats/mainnet/fees?period=daily', 'public, max-age=30'],
    ['a count', '/stats/wallets', 'public, max-age=30'],
  ])(
    '%s: Cache-Control, a strong ETag, 304 on If-None-Match',
    async (name, given, cacheControl) => {
      let path = given;
      if (path === null) {
        const newest = await get(served.base, '/transactionsmainnet?limit=2');
        const [pending, settled] = JSON.parse(newest.body.toString('utf8')).transactions as {
          source_tx_hash: string;
        }[];
        path = `/transactionsmainnet/${(name === 'a pending lookup' ? pending : settled)!.source_tx_hash}`;
      }
      const first = await get(served.base, path);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe(cacheControl);
      const tag = first.headers.etag!;
      expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const second = await get(served.base, path);
      expect(second.headers.etag).toBe(tag);
      const cached = await get(served.base, path, { 'If-None-Match': `"other", ${tag}` });
      expect(cached.status).toBe(304);
      expect(cached.body.length).toBe(0);
      expect(cached.headers.etag).toBe(tag);
      expect(cached.headers['cache-control']).toBe(cacheControl);
      // A weak form of the tag matches too (If-None-Match compares weakly); another tag does not.
      expect((await get(served.base, path, { 'If-None-Match': `W/${tag}` })).status).toBe(304);
      const changed = await get(served.base, path, { 'If-None-Match': '"not-this-one"' });
      expect(changed.status).toBe(200);
      expect(changed.body.equals(first.body)).toBe(true);
      // Cache-Control: no-cache in the request asks for the full answer.
      expect(
        (await get(served.base, path, { 'If-None-Match': tag, 'Cache-Control': 'no-cache' }))
          .status,
      ).toBe(200);
    },
  );

  it('changes the ETag of a page when a record on it changes', async () => {
    const before = await get(served.base, '/transactionsmainnet?limit=5');
    await served.t.db.knex.raw(
      `update transactions set destination_tx_status = 'success' where destination_tx_status = 'pending'`,
    );
    const after = await get(served.base, '/transactionsmainnet?limit=5', {
      'If-None-Match': before.headers.etag!,
    });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('answers If-None-Match: * with a 304 (a current representation exists)', async () => {
    const res = await get(served.base, '/transactionsmainnet', { 'If-None-Match': '*' });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });

  it('sends no ETag and no 304 on problems', async () => {
    const res = await get(served.base, '/transactionsmainnet?limit=0', { 'If-None-Match': '*' });
    expect(res.status).toBe(400);
    expect(res.headers.etag).toBeUndefined();
  });
});
