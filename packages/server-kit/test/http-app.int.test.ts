import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { z } from 'zod';
import {
  apiKeyDigest,
  createHttpApp,
  createRateLimiter,
  createKvStore,
  createLogger,
  createMetrics,
  finishHttpApp,
  HttpProblem,
  listen,
  parseBody,
  parseQuery,
  runService,
  sendJson,
  serveOpenApi,
} from '../src/index.js';
import { DOCS_ASSETS } from '../src/openapi.js';

const logger = createLogger({ name: 'test', level: 'silent' });

function buildApp(rateLimit: {
  limit: number;
  redis?: import('../src/kv.js').RedisConnection;
  prefix?: string;
  apiKeys?: Set<string>;
}) {
  const app = createHttpApp({
    logger,
    metrics: createMetrics({ prefix: 'test_' }),
    corsOrigins: ['https://bridge.example'],
    rateLimit,
    trustProxy: false,
  });
  app.get('/amount', (_req, res) => sendJson(res, 200, { amount: 12345678901234567890n }));
  app.get('/query', (req, res) => {
    const q = parseQuery(z.object({ n: z.coerce.number().int().positive() }), req.query);
    res.json(q);
  });
  app.post('/body', (req, res) => {
    const b = parseBody(z.object({ name: z.string() }), req.body);
    res.json(b);
  });
  app.get('/conflict', () => {
    throw new HttpProblem(409, 'ALREADY_BOUND', 'wallet is already bound');
  });
  app.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  app.get('/async-boom', async () => {
    await Promise.resolve();
    throw new Error('async secret');
  });
  serveOpenApi(app, { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
  return finishHttpApp(app, logger);
}

describe('createHttpApp: one path from error to response', () => {
  const app = buildApp({ limit: 1000 });

  it('writes bigint amounts exactly', async () => {
    const res = await request(app).get('/amount').expect(200);
    expect(res.text).toBe('{"amount":12345678901234567890}');
  });

  it.each([
    ['/query?n=abc', 400, 'INVALID_QUERY'],
    ['/query?n=-1', 400, 'INVALID_QUERY'],
    ['/query?n=1&n=2', 400, 'INVALID_QUERY'],
    ['/conflict', 409, 'ALREADY_BOUND'],
    ['/nowhere', 404, 'NOT_FOUND'],
  ])('GET %s -> %i %s problem', async (path, status, code) => {
    const res = await request(app).get(path).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status,
      code,
      type: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('answers unknown failures with a 500 INTERNAL that leaks nothing, sync or async', async () => {
    for (const path of ['/boom', '/async-boom']) {
      const res = await request(app).get(path).expect(500);
      expect(res.body.code).toBe('INTERNAL');
      expect(res.text).not.toMatch(/hunter2|secret|at .*\.ts/);
    }
  });

  it('rejects malformed, oversized and non-object JSON bodies with 4xx problems', async () => {
    const refused = [
      ['application/json', '{"name":', 400, 'INVALID_BODY'],
      ['application/json', JSON.stringify({ name: 'x'.repeat(20_000) }), 413, 'PAYLOAD_TOO_LARGE'],
      ['text/plain', 'name=x', 400, 'INVALID_BODY'],
    ] as const;
    for (const [type, body, status, code] of refused) {
      const res = await request(app)
        .post('/body')
        .set('Content-Type', type)
        .send(body)
        .expect(status);
      expect(res.body.code).toBe(code);
    }
    const wrong = await request(app).post('/body').send({ name: 5 }).expect(400);
    expect(wrong.body.detail).toContain('name');
  });

  it('sends security headers and CORS for allowed origins only', async () => {
    const allowed = await request(app).get('/amount').set('Origin', 'https://bridge.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://bridge.example');
    expect(allowed.headers['x-content-type-options']).toBe('nosniff');
    const other = await request(app).get('/amount').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the OpenAPI document, the docs page and Prometheus metrics', async () => {
    expect((await request(app).get('/openapi.json').expect(200)).body.openapi).toBe('3.1.0');
    const docs = await request(app).get('/docs/').expect(200);
    expect(docs.text).toContain('swagger-ui');
    const metrics = await request(app).get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /test_http_requests_total\{method="GET",route="\/amount",status="200"\} \d+/,
    );
  });

  it('serves under /docs/ only the files the page loads, nothing else of swagger-ui-dist', async () => {
    const page = (await request(app).get('/docs/').expect(200)).text;
    const loaded = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]);
    expect(loaded.sort()).toEqual(DOCS_ASSETS.slice().sort());
    for (const file of loaded) await request(app).get(`/docs/${file}`).expect(200);
    for (const file of [
      'README.md',
      'LICENSE',
      'NOTICE',
      'index.js',
      'index.html',
      'index.css',
      'package.json',
      'swagger-initializer.js',
      'oauth2-redirect.html',
      'oauth2-redirect.js',
      'swagger-ui.css.map',
      'swagger-ui-bundle.js.map',
      'swagger-ui-bundle.js.LICENSE.txt',
      'swagger-ui-es-bundle.js',
      'absolute-path.js',
      'log.bundle-sizes.swagger-ui.txt',
    ]) {
      const res = await request(app).get(`/docs/${file}`);
      expect([file, res.status, res.headers['content-type']]).toEqual([
        file,
        404,
        'application/problem+json; charset=utf-8',
      ]);
    }
  });

  it('answers Range on a static file with 206, and an unsatisfiable one with a 416 problem', async () => {
    const part = await request(app)
      .get('/docs/swagger-ui.css')
      .set('Range', 'bytes=0-9')
      .expect(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-9\/\d+$/);
    expect(part.text).toHaveLength(10);
    for (const range of ['bytes=999999999-', 'bytes=999999999-1000000000']) {
      const res = await request(app).get('/docs/swagger-ui.css').set('Range', range);
      expect(res.status).toBe(416);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
      expect(JSON.parse(res.text)).toMatchObject({ status: 416, code: 'RANGE_NOT_SATISFIABLE' });
    }
    // A malformed Range is ignored (RFC 9110 section 14.2): the whole file.
    await request(app).get('/docs/swagger-ui.css').set('Range', 'bytes=x-y').expect(200);
  });
});

const redisUrl = process.env.REDIS_URL;
const limiterBackends: Array<[string, string | undefined]> = [['memory', undefined]];
if (redisUrl) limiterBackends.push(['redis', redisUrl]);
else console.warn('REDIS_URL is not set: the Redis-shared rate limit case is skipped.');

describe.each(limiterBackends)('rate limiting (%s)', (_kind, url) => {
  const kv = createKvStore({ redisUrl: url, prefix: 'unused:' });
  afterAll(() => kv.close());

  it('limits per client, sends RateLimit headers, and answers 429 with Retry-After', async () => {
    const prefix = `rl:${randomUUID()}:`;
    // Two app instances sharing one store act like two replicas.
    const a = buildApp({ limit: 3, redis: kv.redis, prefix, apiKeys: new Set(['k1']) });
    const b = url ? buildApp({ limit: 3, redis: kv.redis, prefix }) : a;
    const first = await request(a).get('/amount').expect(200);
    expect(first.headers['ratelimit-policy']).toMatch(/^3;w=60/);
    expect(first.headers['ratelimit']).toMatch(/remaining=2/);
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    await request(b).get('/amount').expect(200);
    await request(a).get('/amount').expect(200);
    const limited = await request(b).get('/amount').expect(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // An API key is a separate, higher tier; /metrics on the API port is limited like any path.
    await request(a).get('/amount').set('X-API-Key', 'k1').expect(200);
    expect((await request(a).get('/metrics').expect(429)).body.code).toBe('RATE_LIMITED');
  });

  it('keeps and counts API keys only as SHA-256 digests: no key in a Redis key name', async () => {
    const prefix = `rl:${randomUUID()}:`;
    const plain = 'partner-secret-key-1';
    const other = 'partner-secret-key-2';
    // One key configured as itself, one as its digest (what an operator can put in the Secret).
    const apiKeys = new Set([plain, `sha256:${apiKeyDigest(other)}`]);
    const limiter = createRateLimiter({
      limit: 1,
      apiKeyLimit: 5,
      redis: kv.redis,
      prefix,
      apiKeys,
    });
    const asKey = (key: string | undefined) =>
      limiter.consume({ headers: key ? { 'x-api-key': key } : {}, ip: '203.0.113.9' });
    expect(apiKeyDigest(plain)).toBe(createHash('sha256').update(plain).digest('hex'));
    const first = await asKey(plain);
    expect(first).toMatchObject({ allowed: true, limit: 5, key: `key:${apiKeyDigest(plain)}` });
    expect(await asKey(other)).toMatchObject({ limit: 5, key: `key:${apiKeyDigest(other)}` });
    // An unknown key, or the digest sent as a key, is an ordinary client.
    expect(await asKey('partner-secret-key-3')).toMatchObject({ limit: 1, key: 'ip:203.0.113.9' });
    expect(await asKey(apiKeyDigest(plain))).toMatchObject({ limit: 1 });
    if (url) {
      const keys = (await kv.redis!.sendCommand(['KEYS', `${prefix}*`])) as string[];
      expect(keys.sort()).toEqual(
        [
          `${prefix}ip:203.0.113.9`,
          `${prefix}key:${apiKeyDigest(plain)}`,
          `${prefix}key:${apiKeyDigest(other)}`,
        ].sort(),
      );
      expect(keys.join(' ')).not.toContain('partner-secret');
    }
  });
});

describe('runService', () => {
  it('drains an in-flight request before closing resources on shutdown', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const server = createServer((_req, res) => {
      events.push('request started');
      release = () => {
        res.end('done');
        events.push('request finished');
      };
    });
    const port = await listen(server, 0, '127.0.0.1');
    const { shutdown } = await runService({
      name: 'test',
      logger,
      start: () =>
        Promise.resolve({ server, close: () => Promise.resolve(void events.push('closed')) }),
    });
    const pending = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (!events.includes('request started')) await new Promise((r) => setTimeout(r, 5));
    const stopping = shutdown('test');
    setTimeout(() => release(), 50);
    await stopping;
    expect(await pending).toBe('done');
    expect(events).toEqual(['request started', 'request finished', 'closed']);
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });
});
