/**
 * The app on a listening server over its own pool of a test database, with a clock the test
 * moves and a count of the feed statements it sends (the database handle's statement observer): for the tests of
 * what the feed keeps in memory or in Redis, which ask "was the database read?" and "after how
 * long?".
 */
import { createServer, type Server } from 'node:http';
import { createKvStore, createLogger, listen, type KvStore } from '@ctss/server-kit';
import { createApp } from '../../src/app.js';
import { createDatabase, type DatabaseOptions } from '../../src/db/connect.js';
import {
  createLiveFeed,
  streamLimitsFromConfig,
  type RunningLiveFeed,
} from '../../src/transactions/live-feed.js';
import type { TestDatabase } from './database.js';
import { buildTestDeps, TEST_NOW, type TestDeps } from './deps.js';
import { closeInOrder } from './listen.js';

/** A served app (see the module comment). */
export interface ServedApp {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly base: string;
  /** Statements reading `transactions` the app has sent so far. */
  queries(): number;
  /** Moves the app's clock `ms` forward (it starts at TEST_NOW). */
  advance(ms: number): void;
  /** The app's live feed (started), when asked for. */
  readonly live: RunningLiveFeed | undefined;
  /** Closes the server (open connections cut), the store and the pool. */
  close(): Promise<void>;
}

/**
 * Serves the app configured by `env` over `db` with a pool of `pool` options (4 connections
 * unless set). When `env` sets REDIS_PREFIX, the store is opened on that prefix, so several
 * served apps of one test share one Redis namespace as replicas do; else each has its own.
 * The app's clock starts at `clockMs` (default TEST_NOW). With `withLiveFeed`, the app has its live feed (started before the app is built, as server.ts
 * does), through the Redis fan-out when the store is Redis.
 *
 * @throws what starting the live feed, building the app or listening throws, after closing what
 *         was opened (the feed, the store, the pool).
 */
export async function serveApp(
  db: TestDatabase,
  env: Record<string, string> = {},
  pool: DatabaseOptions = { poolMax: 4 },
  options: { readonly withLiveFeed?: boolean; readonly clockMs?: number } = {},
): Promise<ServedApp> {
  const { withLiveFeed = false, clockMs = TEST_NOW.getTime() } = options;
  const database = createDatabase(db.url, pool);
  let sent = 0;
  database.observe((statement) => {
    if (statement.text.includes('from transactions')) sent += 1;
  });
  let now = clockMs;
  let kv: KvStore | undefined;
  let live: RunningLiveFeed | undefined;
  let deps: TestDeps | undefined;
  try {
    kv = env.REDIS_PREFIX
      ? createKvStore({
          redisUrl: process.env.REDIS_URL,
          prefix: env.REDIS_PREFIX,
          logger: createLogger({ name: 'served-app-test', level: 'silent' }),
        })
      : undefined;
    if (withLiveFeed) {
      // Only its configuration and logger are used: an in-process store, no Redis connection to
      // open and close at once.
      const probe = buildTestDeps({
        database,
        env,
        kv: createKvStore({
          prefix: 'probe:',
          logger: createLogger({ name: 'probe', level: 'silent' }),
        }),
      });
      try {
        live = createLiveFeed({
          url: db.url,
          logger: probe.logger,
          limits: streamLimitsFromConfig(probe.config),
          ...(kv ? { kv } : {}),
          leaseSeconds: 1,
          sessionShared: db.embedded,
        });
      } finally {
        await probe.close();
      }
      await live.start();
    }
    deps = buildTestDeps({
      database,
      env,
      ...(kv ? { kv } : {}),
      ...(live ? { live } : {}),
      clock: () => now,
    });
    const server: Server = createServer(createApp(deps));
    const base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    return {
      base,
      queries: () => sent,
      live,
      advance: (ms) => {
        now += ms;
      },
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await closeInOrder(live, deps, database);
      },
    };
  } catch (err) {
    // The app's deps own the store once built (their close() closes it).
    await closeInOrder(live, deps ?? kv, database);
    throw err;
  }
}
