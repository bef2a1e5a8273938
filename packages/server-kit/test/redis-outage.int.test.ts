/**
 * Redis as a dependency that can vanish: a redis-server of the test's own is killed, frozen and
 * restarted under a live KV store and rate limiter.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import {
  createHttpApp,
  createKvStore,
  createMetrics,
  createRateLimiter,
  finishHttpApp,
  KV_COMMAND_TIMEOUT_MS,
  KV_QUEUE_MAX_LENGTH,
  KvUnavailableError,
  listen,
  type KvStore,
} from '../src/index.js';
import { redisProcess, waitFor } from '@ctss/test-support';

/** Port 6390 is this package's own test Redis. */
const redis = redisProcess(6390);
const prefix = `test:outage:${randomUUID().slice(0, 8)}:`;
const lines: Array<Record<string, unknown>> = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  }),
);
const metrics = createMetrics({ prefix: 'outage_' });
/** Generous bound for "fails fast" on a loaded 2-core machine; the timeout itself is 500 ms. */
const FAST_MS = KV_COMMAND_TIMEOUT_MS + 1500;

let kv: KvStore;
let server: Server;
let base: string;
const received: string[] = [];

async function timed<T>(
  op: () => Promise<T>,
): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const started = Date.now();
  const [result] = await Promise.allSettled([op()]);
  return { ms: Date.now() - started, result };
}

async function metric(name: string): Promise<number> {
  const text = await metrics.registry.getSingleMetricAsString(name);
  const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
}

beforeAll(async () => {
  await redis.start();
  kv = createKvStore({ redisUrl: redis.url, prefix, logger });
  const app = createHttpApp({
    logger,
    metrics,
    corsOrigins: ['*'],
    trustProxy: false,
    rateLimit: { limit: 5, windowSeconds: 60, redis: kv.redis, prefix: `${prefix}rl:` },
  });
  app.get('/hello', (_req, res) => {
    res.json({ ok: true });
  });
  finishHttpApp(app, logger);
  server = createServer(app);
  base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  await kv.subscribe('updates', (m) => received.push(m));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await kv.close();
  await redis.stop();
});

describe('a KV store and rate limiter whose Redis goes away and comes back', () => {
  it('works while Redis is up, counting the rate limit in Redis', async () => {
    await kv.set('a', '1');
    expect(await kv.get('a')).toBe('1');
    await kv.publish('updates', 'before');
    await waitFor(() => received.includes('before'));
    const res = await fetch(`${base}/hello`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(await kv.redis!.sendCommand(['GET', `${prefix}rl:ip:127.0.0.1`])).toBe('1');
    expect(await metric('outage_redis_up')).toBe(1);
  });

  it('fails KV operations fast while Redis is down, and the rate limit fails open to memory', async () => {
    await redis.stop();
    await waitFor(() => !kv.redis!.ready);
    const ops: Array<() => Promise<unknown>> = [
      () => kv.get('a'),
      () => kv.set('b', '2', 10),
      () => kv.publish('updates', 'x'),
    ];
    for (const op of ops) {
      const { ms, result } = await timed(op);
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(KvUnavailableError);
      expect(ms).toBeLessThan(FAST_MS);
    }
    const fallbackBefore = await metric('outage_rate_limit_fallback_total');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const started = Date.now();
      const res = await fetch(`${base}/hello`);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
      statuses.push(res.status);
      if (res.status === 200) {
        expect(res.headers.get('ratelimit-policy')).toBe('5;w=60');
        expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      } else {
        expect(res.headers.get('retry-after')).toMatch(/^[0-9]+$/);
        expect(((await res.json()) as { code: string }).code).toBe('RATE_LIMITED');
      }
    }
    // The in-process window starts empty: 5 allowed, the 6th refused, exactly as MemoryStore counts.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await metric('outage_rate_limit_fallback_total')).toBe(fallbackBefore + 6);
    expect(await metric('outage_redis_up')).toBe(0);
  });

  it('heals without recreating the store: commands, the Redis rate limit and subscriptions resume', async () => {
    await redis.start();
    await waitFor(() => kv.redis!.ready);
    await kv.set('a', 'again');
    expect(await kv.get('a')).toBe('again');
    // node-redis renews the subscription on its new connection.
    await waitFor(async () => {
      await kv.publish('updates', 'after');
      return received.includes('after');
    });
    const fallbackBefore = await metric('outage_rate_limit_fallback_total');
    const res = await fetch(`${base}/hello`);
    expect(res.status).toBe(200);
    // The restarted Redis lost every counter (no persistence): this request starts a new window there.
    expect(await kv.redis!.sendCommand(['GET', `${prefix}rl:ip:127.0.0.1`])).toBe('1');
    expect(await metric('outage_rate_limit_fallback_total')).toBe(fallbackBefore);
    expect(await metric('outage_redis_up')).toBe(1);
  });

  it('logs one warning per outage and one line when Redis is back, not one per retry', () => {
    const events = lines.map((l) => l.event).filter(Boolean);
    expect(events.filter((e) => e === 'redis_down')).toHaveLength(1);
    expect(events.filter((e) => e === 'redis_up')).toHaveLength(1);
    expect(events.filter((e) => e === 'rate_limit_fallback')).toHaveLength(1);
    expect(events.filter((e) => e === 'rate_limit_redis')).toHaveLength(1);
    const down = lines.find((l) => l.event === 'redis_down')!;
    expect(down.level).toBe(40);
    expect(down).not.toHaveProperty('stack');
  });

  it('bounds every command when Redis hangs with the connection open, and the rate limit still answers', async () => {
    redis.pause();
    try {
      const { ms, result } = await timed(() => kv.get('a'));
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(KvUnavailableError);
      expect(ms).toBeGreaterThanOrEqual(KV_COMMAND_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(FAST_MS);
      const started = Date.now();
      const res = await fetch(`${base}/hello`);
      // Counted in memory again, where this client's window from the outage already holds 6 hits.
      expect(res.status).toBe(429);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
    } finally {
      redis.resume();
    }
    await waitFor(async () => (await kv.get('a').catch(() => null)) === 'again');
  });

  it('fails a command at once, without waiting for its timeout, while a hung Redis holds a full queue', async () => {
    redis.pause();
    try {
      const queued = Array.from({ length: KV_QUEUE_MAX_LENGTH }, (_, i) => kv.get(`q${i}`));
      const { ms, result } = await timed(() => kv.get('one-more'));
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(KvUnavailableError);
      expect(ms).toBeLessThan(KV_COMMAND_TIMEOUT_MS - 100);
      // The queued ones are still bounded by the command timeout.
      const settled = await Promise.allSettled(queued);
      expect(settled.every((r) => r.status === 'rejected')).toBe(true);
    } finally {
      redis.resume();
    }
    await waitFor(async () => (await kv.get('a').catch(() => null)) === 'again');
  });
});

describe('a rate limiter whose script reload fails while the connection stays up', () => {
  it('loads its scripts anew at the next probe and counts in Redis again', async () => {
    const key = `${prefix}rl:ip:127.0.0.1`;
    await redis.start();
    await waitFor(() => kv.redis!.ready);
    await waitFor(async () => (await fetch(`${base}/hello`)).headers.has('x-ratelimit-limit'));
    await kv.redis!.sendCommand(['DEL', key]);
    // A new server's state (no scripts), and a SCRIPT LOAD that fails: the EVALSHA answers
    // NOSCRIPT and rate-limit-redis's reload is refused, so its kept SHA promise rejects.
    await kv.redis!.sendCommand(['SCRIPT', 'FLUSH']);
    await kv.redis!.sendCommand(['ACL', 'SETUSER', 'default', '-script']);
    try {
      await fetch(`${base}/hello`);
      expect(await kv.redis!.sendCommand(['EXISTS', key])).toBe(0);
    } finally {
      await kv.redis!.sendCommand(['ACL', 'SETUSER', 'default', '+@all']);
    }
    // Same connection throughout: no reconnection tells the store to reload.
    await waitFor(async () => {
      await fetch(`${base}/hello`);
      return (await kv.redis!.sendCommand(['EXISTS', key])) === 1;
    });
    // Back in Redis for every request, not only for the once-a-second probe.
    const counted = Number(await kv.redis!.sendCommand(['GET', key]));
    for (let i = 0; i < 3; i += 1) await fetch(`${base}/hello`);
    expect(Number(await kv.redis!.sendCommand(['GET', key]))).toBe(counted + 3);
  });
});

describe('consume(): the rate limit for requests that bypass express', () => {
  it('counts against the same per-client key and store as the middleware, in Redis or in memory', async () => {
    const limiter = createRateLimiter(
      { limit: 2, windowSeconds: 60, redis: kv.redis, prefix: `${prefix}ws:` },
      { logger },
    );
    const app = createHttpApp({
      logger,
      metrics: createMetrics({ prefix: 'consume_' }),
      corsOrigins: ['*'],
      trustProxy: false,
      rateLimit: limiter,
    });
    app.get('/hello', (_req, res) => {
      res.json({ ok: true });
    });
    const own = createServer(finishHttpApp(app, logger));
    const url = `http://127.0.0.1:${await listen(own, 0, '127.0.0.1')}`;
    try {
      expect((await fetch(`${url}/hello`)).status).toBe(200);
      const upgrade = { headers: {}, ip: '::ffff:127.0.0.1' } as Parameters<
        typeof limiter.consume
      >[0];
      const second = await limiter.consume(upgrade);
      expect(second).toMatchObject({ allowed: true, limit: 2, remaining: 0, key: 'ip:127.0.0.1' });
      const third = await limiter.consume(upgrade);
      expect(third.allowed).toBe(false);
      expect(third.retryAfterSeconds).toBeGreaterThan(0);
      expect(third.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect((await fetch(`${url}/hello`)).status).toBe(429);
      await redis.stop();
      await waitFor(() => !kv.redis!.ready);
      // Away from Redis: the in-process count, fail open, answered at once.
      const started = Date.now();
      const offline = await limiter.consume(upgrade);
      expect(offline.allowed).toBe(true);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
    } finally {
      own.closeAllConnections();
      await new Promise<void>((resolve) => own.close(() => resolve()));
      await redis.start();
    }
  });
});

describe('a KV store created while Redis is down', () => {
  it('fails fast from the start and works once Redis is reachable', async () => {
    const absent = redisProcess(6391);
    const early = createKvStore({
      redisUrl: absent.url,
      prefix,
      logger: pino({ level: 'silent' }),
    });
    try {
      const { ms, result } = await timed(() => early.get('x'));
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(KvUnavailableError);
      expect(ms).toBeLessThan(FAST_MS);
      await absent.start();
      await waitFor(() => early.redis!.ready, 15_000);
      await early.set('x', '1');
      expect(await early.get('x')).toBe('1');
    } finally {
      await early.close();
      await absent.stop();
    }
  });
});
