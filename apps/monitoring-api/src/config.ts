/**
 * The monitoring API's configuration: one zod schema over the environment, checked once at start-up
 * (absent = documented default, present but invalid = the process exits naming every bad variable).
 * The README's "Configuration" section lists the same variables.
 */
import {
  envBoolean,
  envInteger,
  envList,
  envUrl,
  parseConfig,
  serviceConfigShape,
} from '@ctss/server-kit';
import { z } from 'zod';
import { OPEN_WINDOW_MAX_AGE } from './cache-control.js';
import { DEFAULT_TIMEOUTS, type DatabaseTimeouts } from './db/connect.js';
import { namesConfigSchema } from './names/config.js';
import { parseIndexedChains } from './transactions/watermark.js';
import { DEFAULT_USERNAME_SUFFIX, usersConfigSchema } from './users/config.js';

const postgresUrl = z
  .string()
  .trim()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL');

/**
 * Default requests per minute per client IP of the Monitoring API (docs/decisions.md "D69.
 * Monitoring API rate-limit defaults").
 */
const MONITORING_RATE_LIMIT_PER_MINUTE = 600;

/** The core environment schema; every variable optional with a default unless stated. */
const CoreConfigSchema = z.object({
  ...serviceConfigShape,
  /**
   * Requests per minute per client IP (docs/api.md "Rate limits"; docs/decisions.md "D69.
   * Monitoring API rate-limit defaults"): 600, so DefiLlama's bridges-server job (48 hourly
   * windows, 12 at a time) finishes a run of up to 600 pages without a 429.
   */
  RATE_LIMIT_PER_MINUTE: envInteger(1, 1_000_000).default(MONITORING_RATE_LIMIT_PER_MINUTE),
  /** Requests per minute of the API-key tier: ten times the per-IP default. */
  API_KEY_RATE_LIMIT_PER_MINUTE: envInteger(1, 10_000_000).default(
    10 * MONITORING_RATE_LIMIT_PER_MINUTE,
  ),
  /** HTTP port (docs/architecture.md "Services and processes": 3000). */
  PORT: envInteger(0, 65535).default(3000),
  /** Primary PostgreSQL; absent = embedded PGlite with demo data. */
  DATABASE_URL: postgresUrl.optional(),
  /** Comma-separated read replicas; reads go there, the primary is the fallback. */
  DATABASE_READ_URLS: envList().pipe(z.array(postgresUrl)).default([]),
  /** Connections per pool (primary and each read pool). */
  DATABASE_POOL_MAX: envInteger(1, 200).default(10),
  /**
   * Connections of each pool that carry the hot reads pipelined (db/lanes.ts); 0 = none.
   * Less than DATABASE_POOL_MAX; absent = 2, or DATABASE_POOL_MAX - 1 when that is smaller
   * ({@link pipelineLanes}).
   */
  DATABASE_PIPELINE_LANES: envInteger(0, 199).optional(),
  /** Longest time opening a database connection may take, ms (README "Database outages"). */
  DATABASE_CONNECT_TIMEOUT_MS: envInteger(100, 60_000).default(DEFAULT_TIMEOUTS.connectTimeoutMs),
  /**
   * Longest time a statement of a request may run, ms (PostgreSQL `statement_timeout`; the
   * client stops waiting for any answer 1 s later).
   */
  DATABASE_STATEMENT_TIMEOUT_MS: envInteger(100, 600_000).default(
    DEFAULT_TIMEOUTS.statementTimeoutMs,
  ),
  /** Longest time a request waits for a connection of a busy pool, ms. */
  DATABASE_ACQUIRE_TIMEOUT_MS: envInteger(100, 60_000).default(DEFAULT_TIMEOUTS.acquireTimeoutMs),
  /** Key prefix in Redis, so several deployments can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .transform((value) => value ?? 'ctss:monitoring:'),
  /** Lifetime of cached statistics, seconds; 0 turns caching off. */
  CACHE_TTL_SECONDS: envInteger(0, 86_400).default(30),
  /** Ethereum JSON-RPC endpoint for ENS resolution of `.eth` names. */
  ETH_RPC_URL: envUrl().optional(),
  /** Solana JSON-RPC endpoint for SNS resolution of `.sol` names. */
  SOLANA_RPC_URL: envUrl().optional(),
  /** Lifetime of a wallet-binding nonce, seconds (docs/decisions.md "D11. Binding message and nonce
   * rules": 5 minutes). */
  NONCE_TTL_SECONDS: envInteger(10, 3600).default(300),
  /** Suffix of usernames (docs/api.md "Users by wallet or username"). */
  USERNAME_SUFFIX: z
    .string()
    .trim()
    .regex(/^\.[a-z0-9-]{1,32}$/, 'must be a dot and 1-32 lower-case letters, digits or hyphens')
    .optional()
    .transform((value) => value ?? DEFAULT_USERNAME_SUFFIX),
  /**
   * Compress answers of 1 KiB and more with gzip or brotli as `Accept-Encoding` asks (docs/api.md
   * "Compression and HTTP caching"); `false` where the ingress compresses.
   */
  HTTP_COMPRESSION: envBoolean().default(true),
  /** Whether the embedded database loads demo data at start (only without DATABASE_URL). */
  EMBEDDED_SEED: envBoolean().default(true),
  /**
   * Seconds a rendered first feed page is reused in process (transactions/first-page-cache.ts);
   * at most, and by default, the page's `max-age`; 0 = off.
   */
  FEED_FIRST_PAGE_CACHE_SECONDS: envInteger(0, OPEN_WINDOW_MAX_AGE).default(OPEN_WINDOW_MAX_AGE),
  /**
   * Open live-feed streams of one replica (docs/api.md "Live feed (Server-Sent Events)"); one
   * more is a 503. Below the process connection cap (4096), so other requests keep connections.
   */
  STREAM_MAX_CLIENTS: envInteger(1, 100_000).default(2048),
  /** Open live-feed streams of one client address; one more is a 429. */
  STREAM_MAX_CLIENTS_PER_ADDRESS: envInteger(1, 100_000).default(16),
  /** Unsent bytes of one stream above which the client (not reading) is dropped. */
  STREAM_CLIENT_BUFFER_BYTES: envInteger(4096, 64 * 1024 * 1024).default(1024 * 1024),
  /** Seconds between the heartbeat comments of a stream (below proxies' 60 s idle timeouts). */
  STREAM_HEARTBEAT_SECONDS: envInteger(1, 300).default(15),
  /**
   * With REDIS_URL: seconds of the Redis lease that makes one replica the live feed's only
   * PostgreSQL listener (renewed every third of it); a dead listener is replaced within it
   * (docs/decisions.md "D200. Live feed: one listener, fanned out through Redis").
   */
  STREAM_LEADER_LEASE_SECONDS: envInteger(1, 60)
    .default(5)
    .describe(
      'Seconds of the Redis lease held by the one replica that LISTENs for live-feed changes and publishes them to the others',
    ),
  /**
   * The indexer's configured chains as comma-separated `network:domain` entries (e.g.
   * `mainnet:0,mainnet:6`): a feed window is closed, its pages kept and served as immutable, once
   * every one of them is indexed and final past its `end_time` (transactions/watermark.ts). Empty
   * (the default, e.g. the seeded demo without indexer) = no window is ever closed.
   */
  FEED_INDEXED_CHAINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseIndexedChains(value ?? '');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Bytes of closed-window feed pages kept in process in front of Redis
   * (transactions/closed-windows.ts); 0 = none (Redis only).
   */
  FEED_CLOSED_PAGE_MEMORY_BYTES: envInteger(0, 1024 * 1024 * 1024).default(8 * 1024 * 1024),
});

/** The whole environment schema: the core variables plus those of the users and names modules. */
export const ConfigSchema = CoreConfigSchema.extend(usersConfigSchema.shape)
  .extend(namesConfigSchema.shape)
  .superRefine((config, ctx) => {
    const lanes = config.DATABASE_PIPELINE_LANES;
    if (lanes !== undefined && lanes > 0 && lanes >= config.DATABASE_POOL_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_PIPELINE_LANES'],
        message: `must be less than DATABASE_POOL_MAX (${config.DATABASE_POOL_MAX}), so other queries keep a connection; 0 turns pipelining off`,
      });
    }
  });

/** The validated configuration. */
export type AppConfig = z.output<typeof ConfigSchema>;

/** Default pipelined connections per pool (DATABASE_PIPELINE_LANES), when the pool allows. */
const DEFAULT_PIPELINE_LANES = 2;

/**
 * The pipelined connections per pool in effect: DATABASE_PIPELINE_LANES when set, else
 * {@link DEFAULT_PIPELINE_LANES} capped at DATABASE_POOL_MAX - 1 (so a pool of one pipelines
 * nothing).
 */
export function pipelineLanes(
  config: Pick<AppConfig, 'DATABASE_PIPELINE_LANES' | 'DATABASE_POOL_MAX'>,
): number {
  return (
    config.DATABASE_PIPELINE_LANES ?? Math.min(DEFAULT_PIPELINE_LANES, config.DATABASE_POOL_MAX - 1)
  );
}

/** The request pools' timeouts (db/connect.ts) from DATABASE_*_TIMEOUT_MS. */
export function databaseTimeouts(
  config: Pick<
    AppConfig,
    'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS' | 'DATABASE_ACQUIRE_TIMEOUT_MS'
  >,
): DatabaseTimeouts {
  return {
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  };
}

/**
 * Parses the environment into an {@link AppConfig} (the entry points call it once at start).
 *
 * @throws ConfigError (server-kit) naming every invalid variable; values are never echoed.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return parseConfig(ConfigSchema, env);
}
