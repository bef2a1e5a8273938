/**
 * Knex pools for the primary and the read replicas (docs/decisions.md "D37. Read
 * replicas": reads go to DATABASE_READ_URLS, the primary is the fallback).
 */
import knexFactory, { type Knex } from 'knex';
import ClientPG from 'knex/lib/dialects/postgres/index.js';
import pg from 'pg';
import { createLogger } from '@ctss/server-kit';
import type { Logger } from 'pino';
import { CircuitBreaker } from './circuit-breaker.js';
import { PipelineLanes } from './prepared.js';
import { DatabaseHealth } from './target-health.js';
import { DATABASE, isConnectionLost } from './unavailable.js';

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

/** How much longer than the statement timeout the client waits for any answer (read timeout). */
const READ_TIMEOUT_MARGIN_MS = 1_000;

/** Options of {@link createKnex}. */
export interface KnexOptions {
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
  /** Longest wait for a pool connection (knex `acquireConnectionTimeout`), ms; default 10 s. */
  readonly acquireTimeoutMs?: number;
  /**
   * Pool connections that carry the prepared statements of concurrent requests pipelined
   * (node-postgres `pipeline: true`; db/prepared.ts `PipelineLanes`, owned by the pool); 0 or absent = none,
   * each statement on a connection of its own. Less than `poolMax`.
   */
  readonly pipelineLanes?: number;
  /** Fails requests at once while the database is known down (db/circuit-breaker.ts); absent = none. */
  readonly breaker?: CircuitBreaker;
  /**
   * The server serves every client connection from ONE session (the embedded PGlite behind
   * db/session-server.ts, docs/architecture.md "Embedded defaults"; a pooler in transaction mode), so
   * nothing kept per session may be assumed per connection: db/prepared.ts runs its statements
   * unnamed. Absent = false; the pool also turns it on by itself the first time a named statement
   * meets another connection's statement of the same name (SQLSTATE 42P05) or misses its own
   * (26000).
   */
  readonly sessionShared?: boolean;
  /**
   * How long a connection may sit idle in the pool before it is closed (tarn
   * `idleTimeoutMillis`), ms; default 30 s.
   */
  readonly idleTimeoutMs?: number;
  /** Hears every statement's outcome, per target (db/target-health.ts); absent = none. */
  readonly health?: DatabaseHealth;
  /**
   * Receives knex's own warnings (per failed acquire: logged at debug level); absent, a JSON
   * logger named `knex` does, so no knex line reaches the console as plain text.
   */
  readonly logger?: Logger;
}

/**
 * Session settings sent in every connection's startup packet: JIT off, since LLVM compilation
 * (several milliseconds) never pays off for these short OLTP queries whose planner estimates can
 * exceed `jit_above_cost` (packages/bench/FINDINGS.md "Monitoring API: 10-record feed pages and the leaderboard"). The embedded PGlite ignores it.
 */
export const SESSION_OPTIONS = '-c jit=off';

/** The per-connection settings of {@link sessionSettings}. */
interface SessionOptions {
  readonly statementTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly lanes: number;
}

/**
 * The pg connection settings every pool connection shares: the session options, the statement
 * timeout with the client read timeout after it (milliseconds, 0 = none), the connect timeout and
 * pipelining when the pool has lanes.
 */
function sessionSettings(options: SessionOptions) {
  return {
    options: SESSION_OPTIONS,
    ...(options.statementTimeoutMs
      ? {
          statement_timeout: options.statementTimeoutMs,
          query_timeout: options.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
        }
      : {}),
    ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    ...(options.lanes > 0 ? { pipeline: true } : {}),
  };
}

/** Where new read connections go (set by {@link createDatabases} when there are replicas). */
interface ReadRouting {
  readonly primaryUrl: string;
  /** How many replicas there are (bounds the connection attempts of one new connection). */
  readonly replicas: number;
  /** The URL of the next new connection: a healthy replica, else the primary. */
  pick(): string;
  /** A replica failed a connection: skip it until its next probe succeeds. */
  lost(url: string): void;
  /** The replica's name in health reports: `replica-<n>`, n its index in DATABASE_READ_URLS. */
  targetOf(url: string): string;
  readonly session: SessionOptions;
}

/** The knex config key holding the {@link ResilientClient}'s hooks. */
interface ResilienceConfig {
  readonly resilience?: {
    breaker?: CircuitBreaker;
    routing?: ReadRouting;
    lanes?: PipelineLanes;
    health?: DatabaseHealth;
    /** Whether the server shares one session between connections (see KnexOptions.sessionShared). */
    session: { shared: boolean };
    logger?: Logger;
  };
}

/** A pg connection as knex's dialect keeps it: `__knex__disposed` makes the pool discard it. */
interface PoolConnection {
  __knex__disposed?: unknown;
  /** The replica URL the connection goes to; absent for the primary. */
  __ctssReplica?: string;
  /** The replica's name in health reports (`replica-<n>`); absent for the primary. */
  __ctssTarget?: string;
}

/** The health report name of the target `connection` goes to. */
function targetOf(connection: unknown): string {
  return (connection as PoolConnection | undefined)?.__ctssTarget ?? 'primary';
}

/**
 * The pg dialect with outage handling: the circuit breaker admits each acquire and hears each
 * query's outcome, a connection whose link failed is discarded (node-postgres leaves a client
 * whose query hit the read timeout open), and with replicas each new connection goes to
 * the next healthy one, trying the others and then the primary when one cannot be reached.
 * db/prepared.ts reports its statements' outcomes through {@link queryAnswered}/{@link queryFailed}.
 */
class ResilientClient extends ClientPG {
  private get hooks(): NonNullable<ResilienceConfig['resilience']> {
    return (this.config as ResilienceConfig).resilience ?? { session: { shared: false } };
  }

  /**
   * Whether the server serves every connection from one session (db/prepared.ts then names no
   * statement): set by the pool's options, or by {@link sessionSharedDetected}.
   */
  get sessionShared(): boolean {
    return this.hooks.session.shared;
  }

  /**
   * A named statement met another connection's statement of the same name (42P05) or missed
   * its own (26000): the server shares one session between connections; from now on the pool's
   * statements are unnamed. Logged once per pool.
   */
  sessionSharedDetected(err: unknown): void {
    const { session, logger } = this.hooks;
    if (session.shared) return;
    session.shared = true;
    logger?.warn(
      { code: (err as { code?: unknown } | null)?.code },
      'the database serves every connection from one session: prepared statements now run unnamed',
    );
  }

  /** The pool's pipelined lanes (db/prepared.ts runs its statements on them); absent = none. */
  get pipelineLanes(): PipelineLanes | undefined {
    return this.hooks.lanes;
  }

  override async acquireConnection(): Promise<unknown> {
    const { breaker } = this.hooks;
    breaker?.admit();
    try {
      return await super.acquireConnection();
    } catch (err) {
      if (isConnectionLost(err)) breaker?.failed(err);
      throw err;
    }
  }

  override async _acquireOnlyConnection(): Promise<unknown> {
    const { routing } = this.hooks;
    if (routing === undefined) return super._acquireOnlyConnection();
    for (let attempt = 0; ; attempt += 1) {
      const url = routing.pick();
      // Read synchronously by the parent before any await, so concurrent opens do not mix targets.
      this.connectionSettings = { connectionString: url, ...sessionSettings(routing.session) };
      try {
        const connection = (await super._acquireOnlyConnection()) as PoolConnection;
        if (url !== routing.primaryUrl) {
          connection.__ctssReplica = url;
          connection.__ctssTarget = routing.targetOf(url);
        }
        return connection;
      } catch (err) {
        if (url === routing.primaryUrl || attempt >= routing.replicas || !isConnectionLost(err))
          throw err;
        routing.lost(url);
      }
    }
  }

  override async _query(connection: unknown, obj: unknown): Promise<unknown> {
    try {
      const result = await super._query(connection, obj);
      this.queryAnswered(connection);
      return result;
    } catch (err) {
      this.queryFailed(connection, err);
      throw err;
    }
  }

  /** A statement on `connection` got its answer from the server. */
  queryAnswered(connection: unknown): void {
    this.hooks.breaker?.succeeded();
    this.hooks.health?.answered(targetOf(connection));
  }

  /**
   * A statement on `connection` failed with `err`: an error of the server (a SQLSTATE of its
   * own) still proves it answers, and counts against its target's health (db/target-health.ts);
   * a lost link discards the connection and counts as a failure of the database (or, on a
   * replica connection, takes that replica out of the rotation).
   */
  queryFailed(connection: unknown, err: unknown): void {
    const { breaker, routing, health } = this.hooks;
    if (!isConnectionLost(err)) {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && SQLSTATE.test(code)) {
        breaker?.succeeded();
        health?.failed(targetOf(connection), code);
      }
      return;
    }
    const link = connection as PoolConnection;
    link.__knex__disposed ??= err;
    if (link.__ctssReplica !== undefined) routing?.lost(link.__ctssReplica);
    else breaker?.failed(err);
  }
}

/** A PostgreSQL error code (five digits or upper-case letters), as opposed to a Node one. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** knex's `log` option: its per-acquire warnings at debug level, its errors as warnings. */
function knexLog(logger: Logger) {
  const silent = () => undefined;
  return {
    warn: (message: unknown) => logger.debug({ knex: message }, 'knex warning'),
    debug: silent,
    deprecate: (message: unknown) => logger.warn({ knex: message }, 'knex deprecation'),
    error: (message: unknown) => logger.warn({ knex: message }, 'knex error'),
  };
}

/** A knex instance over one PostgreSQL URL. `int8` and `numeric` come back as strings (parse with BigInt). */
export function createKnex(url: string, options: KnexOptions): Knex {
  return buildKnex(url, options);
}

function buildKnex(url: string, options: KnexOptions, routing?: ReadRouting): Knex {
  const lanes = options.pipelineLanes ?? 0;
  const session: SessionOptions = {
    statementTimeoutMs: options.statementTimeoutMs ?? 0,
    connectTimeoutMs: options.connectTimeoutMs ?? 0,
    lanes,
  };
  const config: Knex.Config & ResilienceConfig = {
    client: ResilientClient,
    connection: { connectionString: url, ...sessionSettings(session) },
    pool: {
      min: 0,
      max: options.poolMax,
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMillis: options.idleTimeoutMs }),
    },
    acquireConnectionTimeout: options.acquireTimeoutMs ?? 10_000,
    // knex writes to the console as plain text unless given log functions: always give them.
    log: knexLog(options.logger ?? createLogger({ name: 'knex' })),
    resilience: {
      breaker: options.breaker,
      routing,
      lanes: lanes > 0 ? new PipelineLanes(lanes) : undefined,
      health: options.health,
      session: { shared: options.sessionShared ?? false },
      logger: options.logger,
    },
  };
  return knexFactory(config);
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

/** The database handles: `primary` for writes, `read` for queries (a replica pool, or the primary). */
export interface Databases {
  readonly primary: Knex;
  readonly read: Knex;
  /** Whether each target serves statements (`GET /health`); absent = not tracked. */
  readonly health?: DatabaseHealth;
}

/** The databases plus replica probing and a `close()` that destroys every pool and stops probing. */
export interface DatabaseHandles extends Databases {
  readonly health: DatabaseHealth;
  /** Probes every replica now (also done every 5 s); resolves when all probes have answered. */
  refreshReplicaHealth(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the primary pool and the read pool, each behind a circuit breaker
 * (db/circuit-breaker.ts) that, while open, probes the database in the background (a new
 * connection and `select 1`, within the timeouts) every 500 ms, and with `timeouts` (default {@link DEFAULT_TIMEOUTS}). With replicas,
 * the read pool opens each new connection on the next healthy replica (round robin); replicas are
 * probed every 5 seconds, a replica that fails a connection is skipped until its next successful
 * probe, and when none is healthy new read connections go to the primary. Without replicas
 * `read` is the primary pool itself.
 */
export function createDatabases(
  config: {
    primaryUrl: string;
    readUrls: readonly string[];
    poolMax: number;
    /** Pipelined connections per pool (see {@link KnexOptions.pipelineLanes}). */
    pipelineLanes?: number;
    timeouts?: DatabaseTimeouts;
    /** The server shares one session between connections (see {@link KnexOptions.sessionShared}). */
    sessionShared?: boolean;
    /** Pool idle timeout, ms (see {@link KnexOptions.idleTimeoutMs}). */
    idleTimeoutMs?: number;
  },
  logger: Logger,
): DatabaseHandles {
  const timeouts = config.timeouts ?? DEFAULT_TIMEOUTS;
  const lanes = config.pipelineLanes ?? 0;
  const breakers: CircuitBreaker[] = [];
  const replicaName = (url: string) => `replica-${config.readUrls.indexOf(url)}`;
  const health = new DatabaseHealth(['primary', ...config.readUrls.map(replicaName)]);
  /** A breaker whose background probe connects to `target()` (the URL a new connection would use). */
  const breaker = (target: () => string): CircuitBreaker => {
    const created = new CircuitBreaker({
      name: DATABASE,
      logger,
      probe: () => probe(target(), timeouts),
    });
    breakers.push(created);
    return created;
  };
  const poolOptions = (
    poolMax: number,
    lanesOfPool: number,
    target: () => string,
  ): KnexOptions => ({
    poolMax,
    statementTimeoutMs: timeouts.statementTimeoutMs,
    connectTimeoutMs: timeouts.connectTimeoutMs,
    acquireTimeoutMs: timeouts.acquireTimeoutMs,
    pipelineLanes: lanesOfPool,
    breaker: breaker(target),
    logger,
    health,
    sessionShared: config.sessionShared,
    idleTimeoutMs: config.idleTimeoutMs,
  });
  const stopBreakers = () => {
    for (const each of breakers) each.stop();
  };
  const primaryOptions = poolOptions(config.poolMax, lanes, () => config.primaryUrl);
  const primary = createKnex(config.primaryUrl, primaryOptions);
  const primaryBreaker = primaryOptions.breaker!;
  health.watchReachable('primary', () => primaryBreaker.state === 'closed');
  if (config.readUrls.length === 0) {
    return {
      primary,
      read: primary,
      health,
      refreshReplicaHealth: () => Promise.resolve(),
      close: () => {
        stopBreakers();
        return primary.destroy();
      },
    };
  }
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
  const routing: ReadRouting = {
    primaryUrl: config.primaryUrl,
    replicas: config.readUrls.length,
    pick() {
      for (let i = 0; i < config.readUrls.length; i += 1) {
        const url = config.readUrls[(next + i) % config.readUrls.length]!;
        if (healthy.get(url)) {
          next = (next + i + 1) % config.readUrls.length;
          return url;
        }
      }
      return config.primaryUrl;
    },
    lost: (url) => setHealth(url, false),
    targetOf: replicaName,
    session: {
      statementTimeoutMs: timeouts.statementTimeoutMs,
      connectTimeoutMs: timeouts.connectTimeoutMs,
      lanes,
    },
  };
  const read = buildKnex(
    config.primaryUrl,
    poolOptions(config.poolMax * config.readUrls.length, lanes * config.readUrls.length, () =>
      routing.pick(),
    ),
    routing,
  );
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
      stopBreakers();
      await Promise.all([primary.destroy(), read.destroy()]);
    },
  };
}
