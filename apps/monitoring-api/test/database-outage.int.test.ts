/**
 * A PostgreSQL outage under a running Monitoring API (README "Database outages"): an own server is
 * killed, and later frozen, under real HTTP requests. Every feed, statistics and users request
 * that needs the database answers 503 DEPENDENCY_UNAVAILABLE with Retry-After at once (the bound
 * asserted is generous; the measured p99 is printed), statistics loaded before the outage are
 * served stale with `Cache-Status`, /ready stays 200 and reports the database `unreachable` (a
 * shared outage takes no replica out: docs/operations.md "Readiness"), and once the server is back
 * the same process answers again within a couple of seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, createKvStore } from '@ctss/server-kit';
import { createApp } from '../src/app.js';
import {
  createAdminKnex,
  createDatabase,
  createDatabases,
  type DatabaseHandles,
} from '../src/db/connect.js';
import { migrateLatest } from '../src/migrations/index.js';
import { aTransaction, insertAll } from './support/builders.js';
import { buildTestDeps, type TestDeps } from './support/deps.js';
import { closeInOrder, listenOnLoopback, type Listening } from './support/listen.js';
import { canRunOwnPostgres, startOwnPostgres, type OwnPostgres } from './support/own-postgres.js';
import { until } from './support/poll.js';

const PORT = 5442;
const enabled = canRunOwnPostgres();
if (!enabled)
  console.info(
    'database outage test skipped: needs root and PostgreSQL 15 binaries for an own server',
  );

/** Feed and users requests: not cached here (see `env` below), each needs the database. */
const UNCACHED = [
  '/transactionsmainnet?limit=5',
  '/transactions?limit=5',
  '/users/leaderboard?limit=5',
];

/** Statistics never requested while the database is up, so no stale copy of them exists. */
const COLD_STATS = [
  '/stats/mainnet/volumes/hourly?limit=3',
  '/stats/mainnet/fees?period=daily&limit=2',
  '/stats/wallets',
];

/** Requests that each need the database during an outage. */
const NEEDS_DATABASE = [...UNCACHED, ...COLD_STATS];

/** Statistics loaded while the database was up (so a stale copy exists). */
const WARMED = [
  '/stats/mainnet/transactions',
  '/stats/mainnet/volumes',
  '/stats/mainnet/chain-shares',
];

interface Timed {
  status: number;
  ms: number;
  body: string;
  headers: Headers;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

(enabled ? describe : describe.skip)('database outage', () => {
  let pg: OwnPostgres;
  let dbs: DatabaseHandles;
  let deps: TestDeps;
  let listening: Listening | undefined;
  let base: string;
  const warmBodies = new Map<string, string>();

  const get = async (path: string): Promise<Timed> => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`);
    const body = await res.text();
    return { status: res.status, ms: performance.now() - started, body, headers: res.headers };
  };

  /** Polls `path` every 50 ms until it answers 200; the milliseconds that took. */
  const msUntilOk = async (path: string, limitMs: number): Promise<number> => {
    const started = performance.now();
    await until(
      async () => (await get(path)).status,
      (status) => status === 200,
      `${path} to answer 200`,
      { deadlineMs: limitMs, pauseMs: 50 },
    );
    return performance.now() - started;
  };

  const expectUnavailable = (res: Timed, path: string) => {
    expect({ path, status: res.status }).toEqual({ path, status: 503 });
    expect(JSON.parse(res.body)).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', status: 503 });
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  };

  /** Ten rounds of every NEEDS_DATABASE request, each expected unavailable: their times, ms. */
  const timesWhileUnavailable = async (): Promise<number[]> => {
    const times: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(NEEDS_DATABASE.map(get));
      answers.forEach((res, i) => {
        expectUnavailable(res, NEEDS_DATABASE[i]!);
        times.push(res.ms);
      });
    }
    return times;
  };

  beforeAll(async () => {
    pg = await startOwnPostgres(PORT);
    const admin = createAdminKnex(pg.url, { poolMax: 1 });
    await admin.raw('create database outage');
    await admin.destroy();
    const url = pg.urlOf('outage');
    const setup = createAdminKnex(url, { poolMax: 1 });
    await migrateLatest(setup);
    await setup.destroy();
    const load = createDatabase(url, { poolMax: 1 });
    await insertAll(load, [aTransaction(), aTransaction({ network: 'testnet' })]);
    await load.close();
    const logger = createLogger({ name: 'outage-test', level: 'silent' });
    dbs = createDatabases(
      {
        primaryUrl: url,
        readUrls: [],
        poolMax: 4,
        pipelineLanes: 2,
        // A short statement timeout, so the frozen-server case is detected within a test's time.
        timeouts: { connectTimeoutMs: 500, statementTimeoutMs: 800, acquireTimeoutMs: 3_000 },
      },
      logger,
    );
    deps = buildTestDeps({
      database: dbs.primary,
      // The in-process store: this test is about the database, and a Redis hit would hide the stale copy.
      kv: createKvStore({ prefix: 'outage:' }),
      // No first page kept either: under the fixed test clock a kept page would never expire.
      env: { CACHE_TTL_SECONDS: '0', FEED_FIRST_PAGE_CACHE_SECONDS: '0' },
    });
    listening = await listenOnLoopback(createApp(deps));
    base = listening.base;
  }, 120_000);

  afterAll(async () => {
    await closeInOrder(listening, dbs, deps);
    await pg?.destroy();
  }, 60_000);

  it('when the database is up, then every request answers 200', async () => {
    for (const path of [...UNCACHED, ...WARMED]) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      if (WARMED.includes(path)) {
        expect(res.headers.get('cache-status')).toBe('monitoring-api; fwd=miss');
        warmBodies.set(path, res.body);
      }
    }
    expect((await get('/ready')).status).toBe(200);
  });

  it('when the database is killed, then requests answer 503 DEPENDENCY_UNAVAILABLE with Retry-After at once, statistics stale, and the replica stays ready', async () => {
    await pg.kill();
    const times = await timesWhileUnavailable();
    console.info(
      `killed database: ${times.length} requests, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
    expect(Math.max(...times)).toBeLessThan(1_000);
    for (const path of WARMED) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body).toBe(warmBodies.get(path));
      expect(res.headers.get('cache-status')).toMatch(/^monitoring-api; fwd=stale; ttl=-?\d+$/);
      expect(res.ms).toBeLessThan(1_000);
    }
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready', database: 'unreachable' });
    expect(ready.ms).toBeLessThan(1_000);
  });

  it('when the killed database starts again, then the same process answers 200 within a couple of seconds', async () => {
    await pg.start();
    const ms = await msUntilOk('/transactionsmainnet?limit=5', 10_000);
    console.info(`killed database back: feed answered 200 after ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(3_000);
    for (const path of [...UNCACHED, ...WARMED]) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    expect((await get('/stats/mainnet/transactions')).headers.get('cache-status')).toBe(
      'monitoring-api; fwd=miss',
    );
  }, 30_000);

  it('when the database stops answering (frozen), then requests answer 503 once the timeouts detect it, then at once, and recover when it thaws', async () => {
    await pg.freeze();
    try {
      // Detection: the statements in flight wait for the read timeout (statement timeout + 1 s).
      const first = await Promise.all(NEEDS_DATABASE.map(get));
      first.forEach((res, i) => expectUnavailable(res, NEEDS_DATABASE[i]!));
      const times = await timesWhileUnavailable();
      console.info(
        `frozen database: detected after ${Math.max(...first.map((r) => r.ms)).toFixed(0)} ms; then ${times.length} requests, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
      );
      // The breaker probes in the background: no request waits for the frozen server.
      expect(Math.max(...times)).toBeLessThan(1_000);
      const stale = await get(WARMED[0]!);
      expect(stale.status).toBe(200);
      expect(stale.headers.get('cache-status')).toMatch(/fwd=stale/);
    } finally {
      await pg.thaw();
    }
    const ms = await msUntilOk('/transactionsmainnet?limit=5', 10_000);
    console.info(`thawed database: feed answered 200 after ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(3_000);
  }, 60_000);
});
