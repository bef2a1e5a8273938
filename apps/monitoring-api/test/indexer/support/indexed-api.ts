/**
 * The Monitoring API over real HTTP with the indexer loops (`runner.ts`) writing into its
 * database, as the end-to-end tests follow a transfer: the app on a fresh test database with
 * statistics uncached and the real clock (the chains' block times are real time and the hourly
 * series end at the current hour), chain locks over that database, and a runner polling Iris
 * with attestations rechecked at once.
 */
import { createLogger } from '@ctss/server-kit';
import { Registry } from 'prom-client';
import type { Database } from '../../../src/db/database.js';
import { IrisClient } from '../../../src/indexer/iris.js';
import type { ChainLocks } from '../../../src/indexer/lock.js';
import { startIndexerRunner, type IndexerRunner } from '../../../src/indexer/runner.js';
import type { IndexerSource } from '../../../src/indexer/source.js';
import { serveTestApp, type TestApp } from '../../support/app.js';
import { closeInOrder } from '../../support/listen.js';
import { openChainLocks } from './lock-database.js';

/** What {@link startIndexedApi} starts. */
export interface IndexedApi {
  readonly api: TestApp;
  /** The app's base URL, `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly locks: ChainLocks;
  readonly runner: IndexerRunner;
  /** Stops the runner, closes the locks, the server and the app (its database dropped). */
  close(): Promise<void>;
}

/** How the runner of {@link startIndexedApi} is set up. */
export interface IndexedApiOptions {
  /** The logger's name (the test's). */
  readonly name: string;
  /** The local Iris. */
  readonly irisUrl: string;
  /** Iris requests per second the client allows. */
  readonly irisPerSecond: number;
  /** The sources the runner drives, over the app's database and the locks. */
  indexers(db: Database, locks: ChainLocks): IndexerSource[];
}

/**
 * Starts the app, serves it on a loopback port and starts the indexer loops over its database
 * (module comment).
 *
 * @throws when the database cannot be created, the server cannot listen, or `options.indexers`
 *         or the runner throws; what was opened (the locks, the app) is closed first.
 */
export async function startIndexedApi(options: IndexedApiOptions): Promise<IndexedApi> {
  const served = await serveTestApp({ env: { CACHE_TTL_SECONDS: '0' }, clock: Date.now });
  const { api } = served;
  let lockPool: ReturnType<typeof openChainLocks> | undefined;
  try {
    lockPool = openChainLocks(api.db);
    const { locks } = lockPool;
    const runner = startIndexerRunner({
      indexers: options.indexers(api.db.database, locks),
      db: api.db.database,
      iris: new IrisClient(options.irisUrl, options.irisPerSecond),
      attestation: { timeoutSeconds: 3600, recheckSeconds: 0 },
      logger: createLogger({ name: options.name, level: 'warn' }),
      registry: new Registry(),
      attestationIntervalMs: 100,
    });
    return {
      api,
      base: served.base,
      locks,
      runner,
      async close() {
        await runner.stop();
        await closeInOrder(lockPool, served);
      },
    };
  } catch (err) {
    await closeInOrder(lockPool, served);
    throw err;
  }
}
