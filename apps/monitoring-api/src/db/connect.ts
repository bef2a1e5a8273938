/**
 * The database handles of a process (docs/architecture.md "Database layer"): the primary and the
 * read handle over node-postgres pools (db/database.ts), each behind a circuit breaker, and the
 * read replicas with primary fallback (docs/decisions.md "D37. Read replicas": reads go to
 * DATABASE_READ_URLS, the primary is the fallback). The background writers (the indexer, the
 * rank job) and the seed run on a primary handle of their own ({@link createWriterDatabase}); only
 * the migrations use a short-lived knex ({@link createAdminKnex}).
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createLogger } from '@ctss/server-kit';
import type { Logger } from 'pino';
import { CircuitBreaker } from './circuit-breaker.js';
import {
  createDatabaseHandle,
  openTarget,
  SESSION_OPTIONS,
  type Database,
  type Target,
} from './database.js';
import { DatabaseHealth } from './target-health.js';
import { DATABASE } from './unavailable.js';
/**
 * Timeouts of the request pools, milliseconds (README "Database outages"): how long opening a
 * connection may take, how long a statement may run (server-side `statement_timeout`; the client
 * gives up one second later with a read timeout, for a server that does not answer at all), and how
 * long a request may wait for a connection of a busy pool.
 */
export interface DatabaseTimeouts {
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly acquireTimeoutMs: number;
}

/** The defaults of DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS. */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutMs: 1_000,
  statementTimeoutMs: 5_000,
  acquireTimeoutMs: 3_000,
};

/** Options of {@link createDatabase}. */
export interface DatabaseOptions {
  /** Most connections in the pool (1 for the embedded database). */
  readonly poolMax: number;
  /**
   * Statement timeout in milliseconds (0 or absent = none, and no read timeout), so no query holds
   * a connection forever. With it the client also gives up 1 s later (node-postgres
   * `query_timeout`), when the server does not answer at all.
   */
  readonly statementTimeoutMs?: number;
  /** Connect timeout (node-postgres `connectionTimeoutMillis`), ms; absent = none. */
  readonly connectTimeoutMs?: number;
  /** Longest wait for a pool connection (pg-pool `connectionTimeoutMillis`), ms; default 10 s. */
  readonly acquireTimeoutMs?: number;
  /**
   * Pool connections that carry the named statements of concurrent requests pipelined
   * (node-postgres `pipeline: true`; db/lanes.ts); 0 or absent = none, each statement on a
   * connection of its own. Less than `poolMax`.
   */
  readonly pipelineLanes?: number;
  /** Fails requests at once while the database is known down (db/circuit-breaker.ts); absent = none. */
  readonly breaker?: CircuitBreaker;
  /**
   * The server serves every client connection from ONE session (the embedded PGlite behind
   * db/session-server.ts, docs/architecture.md "Embedded defaults"; a pooler in transaction mode), so
   * nothing kept per session may be assumed per connection: statements run unnamed. Absent =
   * false; the handle also turns it on by itself the first time a named statement meets another
   * connection's statement of the same name (SQLSTATE 42P05) or misses its own (26000).
   */
  readonly sessionShared?: boolean;
  /** How long a connection may sit idle in the pool before it is closed, ms; default 30 s. */
  readonly idleTimeoutMs?: number;
  /** Hears every statement's outcome, per target (db/target-health.ts); absent = none. */
  readonly health?: DatabaseHealth;
  /** Failed connections are logged at debug level; absent = a JSON logger named `database`. */
  readonly logger?: Logger;
}

/** The pool options of `options`. */
function poolOptionsOf(options: DatabaseOptions) {
  return {
    poolMax: options.poolMax,
    statementTimeoutMs: options.statementTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs,
    acquireTimeoutMs: options.acquireTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    pipeline: (options.pipelineLanes ?? 0) > 0,
  };
}

/**
 * A database handle over one PostgreSQL URL (its own pool, closed by its `close()`). `int8` and
 * `numeric` come back as strings (parse with BigInt).
 */
export function createDatabase(url: string, options: DatabaseOptions): Database {
  const logger = options.logger ?? createLogger({ name: 'database' });
  const primary = openTarget('primary', url, poolOptionsOf(options), logger);
  return createDatabaseHandle({
    routing: { pick: () => primary, retries: 0, lost: () => undefined },
    owned: [primary],
    pipelineLanes: options.pipelineLanes,
    breaker: options.breaker,
    health: options.health,
    sessionShared: options.sessionShared,
    logger,
  });
}

/** knex's `log` option: its warnings at debug level, its errors as warnings. */
function knexLog(logger: Logger) {
  const silent = () => undefined;
  return {
    warn: (message: unknown) => logger.debug({ knex: message }, 'knex warning'),
    debug: silent,
    deprecate: (message: unknown) => logger.warn({ knex: message }, 'knex deprecation'),
    error: (message: unknown) => logger.warn({ knex: message }, 'knex error'),
  };
}

/**
 * A knex instance with a connection of its own, for the migrations at start-up and the
 * command-line tools (public knex configuration: `client: 'pg'`, a connection string and a pool;
 * no statement timeout). Destroy it when done. knex's own log lines go to `logger` (default:
 * a JSON logger named `knex`), never to the console as plain text.
 */
export function createAdminKnex(
  url: string,
  options: { readonly poolMax?: number; readonly logger?: Logger } = {},
): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, options: SESSION_OPTIONS },
    pool: { min: 0, max: options.poolMax ?? 1 },
    log: knexLog(options.logger ?? createLogger({ name: 'knex' })),
  });
}

/**
 * Statement timeouts of the background writers, milliseconds (docs/decisions.md "D250. The
 * indexer, the rank job and the seed on the database layer"): an indexer statement writes at
 * most one chunk of one scanned range; a rank job statement may recompute every wallet (a
 * rebuild); the seed's bulk statements (COPY, index builds) run as long as they need (0 = none).
 */
export const WRITER_STATEMENT_TIMEOUTS_MS = { indexer: 60_000, rankJob: 600_000, seed: 0 } as const;

/**
 * The primary handle of a background writer (the indexer, the rank job, the seed): one pool of
 * `poolMax` connections behind a circuit breaker that probes in the background while open (as
 * {@link createDatabases}), with `timeouts` (the connect and acquire timeouts default to
 * {@link DEFAULT_TIMEOUTS}); `logger` defaults to a JSON logger named `database`. Close it with
 * its `close()`.
 */
export function createWriterDatabase(
  url: string,
  options: { readonly poolMax: number; readonly timeouts: Partial<DatabaseTimeouts> },
  logger: Logger = createLogger({ name: 'database' }),
): Database {
  return createDatabases(
    {
      primaryUrl: url,
      readUrls: [],
      poolMax: options.poolMax,
      timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    },
    logger,
  ).primary;
}

/** How often replica health is probed, milliseconds. */
const PROBE_INTERVAL_MS = 5_000;

/**
 * Whether a PostgreSQL URL accepts a connection (within the connect timeout) and answers a trivial
 * query (within the statement timeout).
 */
async function probe(url: string, timeouts: DatabaseTimeouts): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs,
  });
  // A connection lost mid-probe also fails the probe's query; without a listener the client's
  // 'error' event would be thrown.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The database handles: `primary` for writes, `read` for queries (the replicas, or the primary). */
export interface Databases {
  readonly primary: Database;
  readonly read: Database;
  /** Whether each target serves statements (`GET /health`); absent = not tracked. */
  readonly health?: DatabaseHealth;
}

/** The databases plus replica probing and a `close()` that closes every pool and stops probing. */
export interface DatabaseHandles extends Databases {
  readonly health: DatabaseHealth;
  /** Probes every replica now (also done every 5 s); resolves when all probes have answered. */
  refreshReplicaHealth(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the primary handle and the read handle, each behind a circuit breaker
 * (db/circuit-breaker.ts) that, while open, probes the database in the background (a new
 * connection and `select 1`, within the timeouts) every 500 ms, and with `timeouts` (default
 * {@link DEFAULT_TIMEOUTS}). With replicas (a pool of `poolMax` times the replicas connections
 * on each, so any one of them can carry every read, as can the primary fallback), the read
 * handle opens each new connection on the next healthy replica (round robin); replicas are probed
 * every 5 seconds, a replica that fails or loses a connection is skipped until its next successful
 * probe, and when none is healthy new read connections go to the primary (a pool of the read
 * handle's own). Without replicas
 * `read` is the primary handle itself.
 */
export function createDatabases(
  config: {
    primaryUrl: string;
    readUrls: readonly string[];
    poolMax: number;
    /** Pipelined connections per handle (see {@link DatabaseOptions.pipelineLanes}). */
    pipelineLanes?: number;
    timeouts?: DatabaseTimeouts;
    /** The server shares one session between connections (see {@link DatabaseOptions.sessionShared}). */
    sessionShared?: boolean;
    /** Pool idle timeout, ms (see {@link DatabaseOptions.idleTimeoutMs}). */
    idleTimeoutMs?: number;
  },
  logger: Logger,
): DatabaseHandles {
  const timeouts = config.timeouts ?? DEFAULT_TIMEOUTS;
  const lanes = config.pipelineLanes ?? 0;
  const replicaName = (url: string) => `replica-${config.readUrls.indexOf(url)}`;
  const health = new DatabaseHealth(['primary', ...config.readUrls.map(replicaName)]);
  const poolOptions = {
    poolMax: config.poolMax,
    statementTimeoutMs: timeouts.statementTimeoutMs,
    connectTimeoutMs: timeouts.connectTimeoutMs,
    acquireTimeoutMs: timeouts.acquireTimeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    pipeline: lanes > 0,
  };
  /** A breaker whose background probe connects to `target()` (the URL a new connection would use). */
  const breaker = (target: () => string): CircuitBreaker =>
    new CircuitBreaker({ name: DATABASE, logger, probe: () => probe(target(), timeouts) });
  const primaryTarget = openTarget('primary', config.primaryUrl, poolOptions, logger);
  const primaryBreaker = breaker(() => config.primaryUrl);
  const primary = createDatabaseHandle({
    routing: { pick: () => primaryTarget, retries: 0, lost: () => undefined },
    owned: [primaryTarget],
    pipelineLanes: lanes,
    breaker: primaryBreaker,
    health,
    sessionShared: config.sessionShared,
    logger,
  });
  health.watchReachable('primary', () => primaryBreaker.state === 'closed');
  if (config.readUrls.length === 0) {
    return {
      primary,
      read: primary,
      health,
      refreshReplicaHealth: () => Promise.resolve(),
      close: () => primary.close(),
    };
  }
  // Each read target may carry all reads (the others down): a pool of `poolMax` connections per
  // replica, on each of them and on the primary fallback.
  const readPoolOptions = { ...poolOptions, poolMax: config.poolMax * config.readUrls.length };
  const replicas = config.readUrls.map((url) =>
    openTarget(replicaName(url), url, readPoolOptions, logger, true),
  );
  const healthy = new Map<string, boolean>(config.readUrls.map((url) => [url, true]));
  const setHealth = (url: string, ok: boolean): void => {
    if (ok !== healthy.get(url))
      logger.warn(
        { replica: config.readUrls.indexOf(url), healthy: ok },
        'read replica health changed',
      );
    healthy.set(url, ok);
  };
  let next = 0;
  // The read handle's own pool to the primary, for when no replica is healthy.
  const fallback = openTarget('primary', config.primaryUrl, readPoolOptions, logger);
  const pick = (): Target => {
    for (let i = 0; i < replicas.length; i += 1) {
      const target = replicas[(next + i) % replicas.length]!;
      if (healthy.get(target.url)) {
        next = (next + i + 1) % replicas.length;
        return target;
      }
    }
    return fallback;
  };
  const read = createDatabaseHandle({
    routing: { pick, retries: replicas.length, lost: (target) => setHealth(target.url, false) },
    owned: [...replicas, fallback],
    pipelineLanes: lanes,
    breaker: breaker(() => pick().url),
    health,
    sessionShared: config.sessionShared,
    logger,
  });
  for (const url of config.readUrls)
    health.watchReachable(replicaName(url), () => healthy.get(url)!);
  const refreshReplicaHealth = async (): Promise<void> => {
    await Promise.all(
      config.readUrls.map(async (url) => setHealth(url, await probe(url, timeouts))),
    );
  };
  const timer = setInterval(() => {
    void refreshReplicaHealth();
  }, PROBE_INTERVAL_MS);
  timer.unref();
  return {
    primary,
    read,
    health,
    refreshReplicaHealth,
    async close() {
      clearInterval(timer);
      await Promise.all([primary.close(), read.close()]);
    },
  };
}
