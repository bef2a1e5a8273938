/**
 * The app on a listening server over its own pool of a test database, with a clock the test
 * moves and a count of the feed statements it sends (the database handle's statement observer): for the tests of
 * what the feed keeps in memory or in Redis, which ask "was the database read?" and "after how
 * long?".
 */
import { createServer, type Server } from 'node:http';
import { createKvStore, createLogger, listen } from '@ctss/server-kit';
import { createApp } from '../../src/app.js';
import { createDatabase, type DatabaseOptions } from '../../src/db/connect.js';
import type { TestDatabase } from './database.js';
import { buildTestDeps, TEST_NOW } from './deps.js';

/** A served app (see the module comment). */
export interface ServedApp {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly base: string;
  /** Statements reading `transactions` the app has sent so far. */
  queries(): number;
  /** Moves the app's clock `ms` forward (it starts at TEST_NOW). */
  advance(ms: number): void;
  /** Closes the server (open connections cut), the store and the pool. */
  close(): Promise<void>;
}

/**
 * Serves the app configured by `env` over `db` with a pool of `pool` options (4 connections
 * unless set). When `env` sets REDIS_PREFIX, the store is opened on that prefix, so several
 * served apps of one test share one Redis namespace as replicas do; else each has its own.
 */
export async function serveApp(
  db: TestDatabase,
  env: Record<string, string> = {},
  pool: DatabaseOptions = { poolMax: 4 },
): Promise<ServedApp> {
  const database = createDatabase(db.url, pool);
  let sent = 0;
  database.observe((statement) => {
    if (statement.text.includes('from transactions')) sent += 1;
  });
  let now = TEST_NOW.getTime();
  const kv = env.REDIS_PREFIX
    ? createKvStore({
        redisUrl: process.env.REDIS_URL,
        prefix: env.REDIS_PREFIX,
        logger: createLogger({ name: 'served-app-test', level: 'silent' }),
      })
    : undefined;
  const deps = buildTestDeps({ database, env, ...(kv ? { kv } : {}), clock: () => now });
  const server: Server = createServer(createApp(deps));
  const base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  return {
    base,
    queries: () => sent,
    advance: (ms) => {
      now += ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.close();
      await database.close();
    },
  };
}
