/**
 * The one typed object of dependencies the app factory takes (docs/architecture.md "Packages
 * and what they own"): tests build it with real PostgreSQL/Redis and a fixed clock, `server.ts`
 * builds it from configuration. Each router takes only the part it uses.
 */
import type { KvStore, Metrics } from '@ctss/server-kit';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { AppConfig } from './config.js';
import type { Databases } from './db/connect.js';
import type { NameResolver } from './names/resolver.js';
import type { RunningLiveFeed } from './transactions/live-feed.js';

/** Prometheus metrics of the app (server-kit `createMetrics`). */
export type AppMetrics = Metrics;

/** Everything the app needs; nothing else is reached through globals. */
export interface AppDeps {
  readonly config: AppConfig;
  readonly db: Databases;
  /** Cache, rate-limit and nonce store (Redis in production, in-process otherwise). */
  readonly kv: KvStore;
  /** The current time, epoch milliseconds; tests pass a fixed clock. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: AppMetrics;
  /** `.eth` / `.sol` name resolution (throws HttpProblem 400 INVALID_NAME). */
  readonly names: NameResolver;
  /** The live feed (`GET /transactionsmainnet/stream`); absent = no such route. */
  readonly live?: RunningLiveFeed;
}
