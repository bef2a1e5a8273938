/**
 * The typed dependencies of the app (docs/architecture.md "Packages and what they own", "Feature
 * shape"): what start-up opens ({@link AppResources}: databases, store, clock, logger, metrics,
 * name resolution) and the services built from it once ({@link buildAppDeps}). `server.ts` opens
 * the resources from configuration, tests open them with real PostgreSQL/Redis and a fixed clock;
 * `createApp` builds the services with {@link buildAppDeps}. Each router takes only the part it
 * uses.
 */
import {
  createRateLimiter,
  rateLimitFromConfig,
  type KvStore,
  type Metrics,
  type RateLimiter,
} from '@ctss/server-kit';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { AppConfig } from './config.js';
import type { Databases } from './db/connect.js';
import { createDefiLlamaService, type DefiLlamaService } from './defillama/service.js';
import type { NameResolver } from './names/resolver.js';
import { createStatsService, type StatsService } from './stats/service.js';
import { createTransactionsService, type TransactionsService } from './transactions/service.js';
import { createBindingService, type BindingService } from './users/binding-service.js';
import { createUsersService, type UsersService } from './users/service.js';
import type { RunningLiveFeed } from './transactions/live-feed.js';

/** What start-up opens before any service is built; nothing else is reached through globals. */
export interface AppResources {
  readonly config: AppConfig;
  readonly db: Databases;
  /** Cache, rate-limit and nonce store (Redis in production, in-process otherwise). */
  readonly kv: KvStore;
  /** The current time, epoch milliseconds; tests pass a fixed clock. */
  readonly clock: Clock;
  readonly logger: Logger;
  /** Prometheus metrics of the app (server-kit `createMetrics`). */
  readonly metrics: Metrics;
  /** `.eth` / `.sol` name resolution (throws HttpProblem 400 INVALID_NAME). */
  readonly names: NameResolver;
  /** The live feed (`GET /transactionsmainnet/stream`); absent = no such route. */
  readonly live?: RunningLiveFeed;
}

/** The resources and the service of each feature built from them. */
export interface AppDeps extends AppResources {
  /** The feeds and lookups by hash (`transactions/service.ts`). */
  readonly transactions: TransactionsService;
  /** The statistics (`stats/service.ts`). */
  readonly stats: StatsService;
  /** Leaderboard and lookups (`users/service.ts`). */
  readonly users: UsersService;
  /** Wallet binding (`users/binding-service.ts`). */
  readonly binding: BindingService;
  /** The DefiLlama figures (`defillama/service.ts`). */
  readonly defillama: DefiLlamaService;
  /**
   * The per-client request limit (`RATE_LIMIT_*`), counted in `kv`'s Redis under
   * `${REDIS_PREFIX}rl:`, in process memory without Redis or while Redis is lost.
   */
  readonly rateLimiter: RateLimiter;
}

/**
 * Builds the service of each feature from `resources`; starts nothing and opens nothing. With a
 * live feed, the closed-window store's change watch listens to its changes for as long as the feed
 * runs (transactions/change-watch.ts): build one app per live feed, as start-up does.
 */
export function buildAppDeps(resources: AppResources): AppDeps {
  const { config, db, kv, clock, logger, metrics, names } = resources;
  return {
    ...resources,
    transactions: createTransactionsService({
      db,
      clock,
      names,
      firstPageCacheSeconds: config.FEED_FIRST_PAGE_CACHE_SECONDS,
      kv,
      indexedChains: config.FEED_INDEXED_CHAINS,
      closedPageMemoryBytes: config.FEED_CLOSED_PAGE_MEMORY_BYTES,
      changes: resources.live?.changes,
    }),
    stats: createStatsService({ db, clock }),
    users: createUsersService({
      db,
      kv,
      logger,
      usernameSuffix: config.USERNAME_SUFFIX,
      countTtlSeconds: config.LEADERBOARD_COUNT_TTL_SECONDS,
    }),
    binding: createBindingService({
      primary: db.primary,
      kv,
      clock,
      nonceTtlSeconds: config.NONCE_TTL_SECONDS,
      usernameSuffix: config.USERNAME_SUFFIX,
    }),
    defillama: createDefiLlamaService({ db }),
    rateLimiter: createRateLimiter(
      rateLimitFromConfig(config, kv.redis, `${config.REDIS_PREFIX}rl:`),
      { logger, metrics },
    ),
  };
}
