/**
 * The compression middleware and a body kept compressed (compression.ts): the coding
 * `negotiatedCoding` names is the one the `compression` package applies to the same request,
 * checked against the package itself over real HTTP for a table of `Accept-Encoding` headers;
 * a body sent with `sendCacheableJson(..., { etag, coding })` goes out as it is, not compressed twice, with
 * the coding's tag; `compressBody` writes what zlib reads back.
 */
import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express, Request } from 'express';
import {
  compressBody,
  createHttpApp,
  createLogger,
  createMetrics,
  finishHttpApp,
  negotiatedCoding,
  sendCacheableJson,
  sendJsonText,
  strongEtag,
  type StoredCoding,
} from '../src/index.js';

const logger = createLogger({ name: 'test', level: 'silent' });
/** A JSON body well above the compression threshold. */
const BODY = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ id: i, note: `record ${i}` })),
});

/** An app whose `/plain` answers BODY through the middleware and records `negotiatedCoding`. */
function buildApp(compression: boolean) {
  const seen: Array<StoredCoding | undefined> = [];
  const app = createHttpApp({
    logger,
    metrics: createMetrics({ prefix: 'test_' }),
    corsOrigins: [],
    rateLimit: { limit: 10_000 },
    trustProxy: false,
    compression,
  });
  app.get('/plain', (req: Request, res) => {
    seen.push(negotiatedCoding(req));
    sendJsonText(res, 200, BODY);
  });
  app.get('/kept', async (req: Request, res) => {
    const coding = negotiatedCoding(req);
    const tag = strongEtag(BODY);
    const body = coding === undefined ? BODY : await compressBody(BODY, coding);
    sendCacheableJson(req, res, body, 'public, max-age=60', { etag: tag, coding });
  });
  return { app: finishHttpApp(app, logger), seen };
}

/** An answer as it came over the wire: status, headers and the body's bytes, not decoded. */
interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * Serves `app` and returns a raw client of it (node:http, which sends no header it is not given,
 * unlike supertest's `Accept-Encoding: gzip, deflate`, and does not decompress) and its closing.
 */
async function serve(app: Express) {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const fetchRaw = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<RawAnswer>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path, headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { fetchRaw, close };
}

const ACCEPT_ENCODINGS = [
  'gzip',
  'br',
  'gzip, deflate, br',
  'br, gzip',
  'gzip;q=1, br;q=0.5',
  'br;q=0.2, gzip;q=0.8, identity;q=0',
  'deflate',
  'deflate, gzip;q=0.5',
  'identity',
  '*',
  'gzip;q=0',
  'compress',
];

describe('negotiatedCoding', () => {
  const { app, seen } = buildApp(true);
  const plain = buildApp(false);
  let client: Awaited<ReturnType<typeof serve>>;
  let plainClient: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    client = await serve(app);
    plainClient = await serve(plain.app);
  });
  afterAll(async () => {
    await client.close();
    await plainClient.close();
  });

  it.each(ACCEPT_ENCODINGS)(
    'names the coding the compression package applies for Accept-Encoding: %s',
    async (acceptEncoding) => {
      const res = await client.fetchRaw('/plain', { 'Accept-Encoding': acceptEncoding });
      expect(res.status).toBe(200);
      const applied = res.headers['content-encoding'];
      const named = seen.at(-1);
      // br and gzip are named; deflate and identity are left to the middleware.
      if (applied === 'br' || applied === 'gzip') expect(named).toBe(applied);
      else expect(named).toBeUndefined();
    },
  );

  it('meets both codings it names in the table above', () => {
    expect(new Set(seen)).toEqual(new Set(['br', 'gzip', undefined]));
  });

  it('names nothing for a request without Accept-Encoding, for HEAD, or without the middleware', async () => {
    const none = await client.fetchRaw('/plain');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(seen.at(-1)).toBeUndefined();
    await client.fetchRaw('/plain', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(seen.at(-1)).toBeUndefined();
    const res = await plainClient.fetchRaw('/plain', { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(plain.seen).toEqual([undefined]);
  });
});

describe('a body kept compressed', () => {
  const { app } = buildApp(true);
  const tag = strongEtag(BODY);
  let client: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    client = await serve(app);
  });
  afterAll(() => client.close());

  it.each([
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const)(
    'goes out as it is with %s, once, with the coding in its tag',
    async (coding, decompress) => {
      const res = await client.fetchRaw('/kept', { 'Accept-Encoding': coding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.etag).toBe(`${tag.slice(0, -1)}-${coding}"`);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      // One decompression gives the identity body: the middleware did not compress it again.
      expect(decompress(res.body).toString('utf8')).toBe(BODY);

      const again = await client.fetchRaw('/kept', {
        'Accept-Encoding': coding,
        'If-None-Match': res.headers.etag!,
      });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(res.headers.etag);
      expect(again.body.length).toBe(0);
    },
  );

  it('is the identity body for a client accepting neither', async () => {
    const res = await client.fetchRaw('/kept', { 'Accept-Encoding': 'identity' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toBe(tag);
    expect(res.body.toString('utf8')).toBe(BODY);
  });
});
