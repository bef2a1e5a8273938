/**
 * The cached loader while a backend is away: the last good value of a key is served stale when
 * the loader fails with a dependency error (bounded, age-limited, reported for `Cache-Status`),
 * and a store (Redis) outage bypasses the cache with one warning per outage, not one per call.
 * The Redis case uses a redis-server of its own on port 6395, killed and restarted by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import {
  cacheStatus,
  createCachedLoader,
  createKvStore,
  createMemoryKvStore,
  DependencyUnavailableError,
  HttpProblem,
  textCodec,
  type Logger,
} from '../src/index.js';

const REDIS_PORT = 6395;
const down = () => Promise.reject(new DependencyUnavailableError('database'));

/** A pino logger whose JSON lines are kept in `lines`. */
function capturingLogger(): { logger: Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as { level: number; msg: string });
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

describe('cached loader: stale values on a dependency error', () => {
  it('when the loader fails with a dependency error after a good load, then the last good value is served stale', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 0, staleEntries: 10 });
    expect(await load.lookup('k', () => Promise.resolve('v1'), textCodec)).toEqual({
      value: 'v1',
      outcome: 'miss',
    });
    const stale = await load.lookup('k', down, textCodec);
    expect(stale).toMatchObject({ value: 'v1', outcome: 'stale' });
    expect(stale.ttl).toBeLessThanOrEqual(0);
    expect(cacheStatus('api', stale)).toMatch(/^api; fwd=stale; ttl=-?\d+$/);
    // The plain call serves it too.
    expect(await load('k', down, textCodec)).toBe('v1');
  });

  it('when the loader fails with any other error, then it is thrown even with a stale copy', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 0, staleEntries: 10 });
    await load('k', () => Promise.resolve('v1'), textCodec);
    await expect(load('k', () => Promise.reject(new Error('bug')), textCodec)).rejects.toThrow(
      'bug',
    );
    await expect(
      load('k', () => Promise.reject(new HttpProblem(400, 'INVALID_QUERY', 'bad')), textCodec),
    ).rejects.toThrow('bad');
  });

  it('when the classifier maps the loader error to DEPENDENCY_UNAVAILABLE, then the stale copy is served', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const load = createCachedLoader(createMemoryKvStore(), {
      ttlSeconds: 30,
      staleEntries: 10,
      classifyError: (err) =>
        (err as { code?: string }).code === 'ECONNREFUSED'
          ? new DependencyUnavailableError('database')
          : undefined,
    });
    await load('k', () => Promise.resolve('v1'), textCodec);
    // A hit from the store, not the stale copy, while the value is fresh.
    expect((await load.lookup('k', () => Promise.reject(refused), textCodec)).outcome).toBe('hit');
    const fresh = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 30, staleEntries: 10 });
    await expect(fresh('k', () => Promise.reject(refused), textCodec)).rejects.toBe(refused);
  });

  it('when there is no stale copy, or it is evicted or too old, then the dependency error is thrown', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 0, staleEntries: 2 });
    await expect(load('never', down, textCodec)).rejects.toBeInstanceOf(DependencyUnavailableError);
    for (const key of ['a', 'b', 'c']) await load(key, () => Promise.resolve(key), textCodec);
    // 'a' was the least recently used of three with room for two.
    await expect(load('a', down, textCodec)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(await load('b', down, textCodec)).toBe('b');
    const aged = createCachedLoader(createMemoryKvStore(), {
      ttlSeconds: 0,
      staleEntries: 2,
      staleMaxAgeSeconds: 0.01,
    });
    await aged('k', () => Promise.resolve('v'), textCodec);
    await new Promise((r) => setTimeout(r, 30));
    await expect(aged('k', down, textCodec)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('when staleEntries is not set, then no stale copy is kept', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 0 });
    await load('k', () => Promise.resolve('v'), textCodec);
    await expect(load('k', down, textCodec)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});

describe('cached loader: the store is away', () => {
  let redis: ChildProcess | undefined;
  const startRedis = async (): Promise<void> => {
    redis = spawn(
      'redis-server',
      ['--port', String(REDIS_PORT), '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const kv = createKvStore({ redisUrl: `redis://127.0.0.1:${REDIS_PORT}`, prefix: 'probe:' });
    try {
      for (let i = 0; i < 100; i += 1) {
        if (
          await kv.ping().then(
            () => true,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('own redis-server did not start');
    } finally {
      await kv.close();
    }
  };
  const killRedis = async (): Promise<void> => {
    const child = redis;
    redis = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  };
  afterAll(killRedis);

  it('when Redis dies, then every call loads from the source and the outage is logged once; once it is back, that is logged once', async () => {
    await startRedis();
    const kv = createKvStore({ redisUrl: `redis://127.0.0.1:${REDIS_PORT}`, prefix: 'outage:' });
    const { logger, lines } = capturingLogger();
    const load = createCachedLoader(kv, { ttlSeconds: 30, logger });
    let loads = 0;
    const loader = () => Promise.resolve(`v${++loads}`);
    try {
      expect(await load('k', loader, textCodec)).toBe('v1');
      expect(await load('k', loader, textCodec)).toBe('v1');
      await killRedis();
      // Three calls (each waits for the client's retries before the store counts as failed).
      for (let i = 0; i < 3; i += 1) await load('k', loader, textCodec);
      expect(loads).toBe(4);
      const warnings = lines.filter((l) => l.msg.startsWith('cache store unavailable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.level).toBe(40);
      await startRedis();
      // The client reconnects on its own schedule; keep calling until the store answers.
      const started = Date.now();
      while (!lines.some((l) => l.msg === 'cache store answers again')) {
        if (Date.now() - started > 30_000) throw new Error('store did not answer again');
        await load('k', loader, textCodec);
        await new Promise((r) => setTimeout(r, 100));
      }
      await load('k', loader, textCodec);
      expect(lines.filter((l) => l.msg === 'cache store answers again')).toHaveLength(1);
      expect(lines.filter((l) => l.msg.startsWith('cache store unavailable'))).toHaveLength(1);
    } finally {
      await kv.close();
    }
  }, 60_000);
});
