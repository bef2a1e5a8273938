/**
 * Knex pools for the primary and the read replicas (DESIGN.md "Running": reads go to
 * DATABASE_READ_URLS, the primary is the fallback).
 */
import knexFactory, { type Knex } from 'knex';
import ClientPG from 'knex/lib/dialects/postgres/index.js';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Databases } from '../deps.js';
import { setPipelineLanes } from './prepared.js';

/** Options of {@link createKnex}. */
export interface KnexOptions {
  /** Most connections in the pool (1 for the embedded database). */
  readonly poolMax: number;
  /** Statement timeout in milliseconds (0 = none), so no query holds a connection forever. */
  readonly statementTimeoutMs?: number;
  /**
   * Pool connections that carry the prepared statements of concurrent requests pipelined
   * (node-postgres `pipeline: true`; db/prepared.ts `setPipelineLanes`); 0 or absent = none,
   * each statement on a connection of its own. Less than `poolMax`.
   */
  readonly pipelineLanes?: number;
}

/**
 * Session settings sent in every connection's startup packet: JIT off, since LLVM compilation
 * (several milliseconds) never pays off for these short OLTP queries whose planner estimates can
 * exceed `jit_above_cost` (packages/bench/FINDINGS.md section 4). The embedded PGlite ignores it.
 */
export const SESSION_OPTIONS = '-c jit=off';

/**
 * The pg connection settings every pool connection shares: the session options, the statement
 * timeout (milliseconds, 0 = none) and pipelining when the pool has lanes.
 */
function sessionSettings(statementTimeoutMs: number, lanes: number) {
  return {
    options: SESSION_OPTIONS,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    ...(lanes > 0 ? { pipeline: true } : {}),
  };
}

/** A knex instance over one PostgreSQL URL. `int8` and `numeric` come back as strings (parse with BigInt). */
export function createKnex(url: string, options: KnexOptions): Knex {
  const lanes = options.pipelineLanes ?? 0;
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      ...sessionSettings(options.statementTimeoutMs ?? 0, lanes),
    },
    pool: { min: 0, max: options.poolMax },
    acquireConnectionTimeout: 10_000,
  });
  setPipelineLanes(knex, lanes);
  return knex;
}

/** How often replica health is probed, milliseconds. */
const PROBE_INTERVAL_MS = 5_000;

/** Whether a PostgreSQL URL accepts a connection and a trivial query within two seconds. */
async function probe(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
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

/** The databases plus replica probing and a `close()` that destroys every pool and stops probing. */
export interface DatabaseHandles extends Databases {
  /** Probes every replica now (also done every 5 s); resolves when all probes have answered. */
  refreshReplicaHealth(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the primary pool and the read pool. With replicas, the read pool opens each new
 * connection on the next healthy replica (round robin); replicas are probed every 5 seconds and
 * when none is healthy new read connections go to the primary. Without replicas `read` is the
 * primary pool itself.
 */
export function createDatabases(
  config: {
    primaryUrl: string;
    readUrls: readonly string[];
    poolMax: number;
    /** Pipelined connections per pool (see {@link KnexOptions.pipelineLanes}). */
    pipelineLanes?: number;
  },
  logger: Logger,
): DatabaseHandles {
  const primary = createKnex(config.primaryUrl, {
    poolMax: config.poolMax,
    statementTimeoutMs: 30_000,
    pipelineLanes: config.pipelineLanes,
  });
  if (config.readUrls.length === 0) {
    return {
      primary,
      read: primary,
      refreshReplicaHealth: () => Promise.resolve(),
      close: () => primary.destroy(),
    };
  }
  const lanes = config.pipelineLanes ?? 0;
  const healthy = new Map<string, boolean>(config.readUrls.map((url) => [url, true]));
  let next = 0;
  const pick = (): string => {
    for (let i = 0; i < config.readUrls.length; i += 1) {
      const url = config.readUrls[(next + i) % config.readUrls.length]!;
      if (healthy.get(url)) {
        next = (next + i + 1) % config.readUrls.length;
        return url;
      }
    }
    return config.primaryUrl;
  };
  /** The pg dialect, choosing the connection target at each new physical connection. */
  class ReplicaClient extends ClientPG {
    override _acquireOnlyConnection(): Promise<unknown> {
      // Read synchronously by the parent before any await, so concurrent opens do not mix targets.
      this.connectionSettings = { connectionString: pick(), ...sessionSettings(30_000, lanes) };
      return super._acquireOnlyConnection();
    }
  }
  const read = knexFactory({
    client: ReplicaClient,
    connection: { connectionString: config.primaryUrl, options: SESSION_OPTIONS },
    pool: { min: 0, max: config.poolMax * config.readUrls.length },
    acquireConnectionTimeout: 10_000,
  });
  setPipelineLanes(read, lanes * config.readUrls.length);
  const refreshReplicaHealth = async (): Promise<void> => {
    await Promise.all(
      config.readUrls.map(async (url, index) => {
        const ok = await probe(url);
        if (ok !== healthy.get(url))
          logger.warn({ replica: index, healthy: ok }, 'read replica health changed');
        healthy.set(url, ok);
      }),
    );
  };
  const timer = setInterval(() => {
    void refreshReplicaHealth();
  }, PROBE_INTERVAL_MS);
  timer.unref();
  return {
    primary,
    read,
    refreshReplicaHealth,
    async close() {
      clearInterval(timer);
      await Promise.all([primary.destroy(), read.destroy()]);
    },
  };
}
