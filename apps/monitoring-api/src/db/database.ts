/**
 * The database layer every feature runs its statements through (docs/architecture.md "Database
 * layer"): node-postgres pools (public `pg.Pool` API), one per target, behind a circuit breaker
 * around connection acquisition (db/circuit-breaker.ts), with the statement timeout and the client
 * read timeout on every connection, an acquire timeout, per-target health (db/target-health.ts),
 * named statements where the server keeps one session per connection, pipelined lanes for them
 * when configured (db/lanes.ts), and transactions on one dedicated connection. A read handle with
 * replicas routes each new connection to the next healthy replica and falls back to the primary
 * (docs/decisions.md "D37. Read replicas").
 *
 * Named statements live in the server's session, not in the client connection: where the server
 * serves every connection from one session (the embedded PGlite, db/session-server.ts;
 * docs/architecture.md "Embedded defaults"), a connection the pool closed leaves its statements
 * behind, and the next connection's `Parse` of the same name fails with 42P05
 * duplicate_prepared_statement. On such a handle (`sessionShared`) statements run unnamed; a handle
 * not told so learns it from the first 42P05 (or 26000, a name missing from the session it was
 * prepared on) and runs that statement again unnamed.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import type { CircuitBreaker } from './circuit-breaker.js';
import { PipelineLanes, type Lane } from './lanes.js';
import {
  toStatement,
  type Query,
  type Queryable,
  type Session,
  type Statement,
  type StatementResult,
} from './statements.js';
import type { DatabaseHealth } from './target-health.js';
import { isConnectionLost } from './unavailable.js';

/**
 * Session settings sent in every connection's startup packet: JIT off, since LLVM compilation
 * (several milliseconds) never pays off for these short OLTP queries whose planner estimates can
 * exceed `jit_above_cost` (packages/bench/FINDINGS.md "Monitoring API: 10-record feed pages and the leaderboard"). The embedded PGlite ignores it.
 */
export const SESSION_OPTIONS = '-c jit=off';

/** How much longer than the statement timeout the client waits for any answer (read timeout). */
const READ_TIMEOUT_MARGIN_MS = 1_000;

/** A statement the handle sent, as its observers hear it (before it runs). */
interface ExecutedStatement {
  /** The SQL text with `$n` placeholders. */
  readonly text: string;
  readonly values: readonly unknown[];
  /** The statement's name when it is a named statement (db/statements.ts `prepare`). */
  readonly name?: string;
}

/** Hears every statement a {@link Database} sends (a query log, the SQL files of src/queries). */
type StatementObserver = (statement: ExecutedStatement) => void;

/** A pool of statements over one or more targets (see the module comment). */
export interface Database extends Session {
  /** Calls `observer` with every statement sent from now on; returns the function that stops it. */
  observe(observer: StatementObserver): () => void;
  /** Whether the server shares one session between connections (statements then run unnamed). */
  readonly sessionShared: boolean;
  /** Connections open in the handle's own pools (idle or in use; pg-pool `totalCount`). */
  openConnections(): number;
  /**
   * Holds one connection of the pool (admitted by the breaker, like every acquisition) for
   * statements whose effect lives in the server's **session** rather than in one statement or
   * transaction: a session advisory lock (`pg_try_advisory_lock`), held until the connection
   * ends. `transaction()` covers transaction scope (`pg_advisory_xact_lock`, released at COMMIT or
   * ROLLBACK); this covers session scope. Not for a handle whose server shares one session
   * between connections (see the module comment): its session state is not per connection.
   *
   * @throws DependencyUnavailableError while the breaker is open; the pool's acquire timeout
   *         error; the connection error.
   */
  reserve(): Promise<ReservedConnection>;
  /** Closes the handle's own pools (waits for checked-out connections to be released). */
  close(): Promise<void>;
}

/** A connection held by {@link Database.reserve} (statements on it share one session). */
export interface ReservedConnection extends Queryable {
  /** Whether the connection was lost (its session, with all it held, is gone). */
  readonly lost: boolean;
  /** Calls `listener` once when the connection is lost (an error or its end). */
  onLost(listener: () => void): void;
  /**
   * Gives the connection up: the pool closes it rather than reusing it, so nothing of its
   * session (locks, settings) reaches another caller. Further statements fail.
   */
  release(): void;
}

/** Pool options of {@link openTarget}. */
export interface PoolOptions {
  /** Most connections in the pool (1 for the embedded database). */
  readonly poolMax: number;
  /**
   * Statement timeout in milliseconds (0 or absent = none, and no read timeout), so no query holds
   * a connection forever. With it the client also gives up 1 s later (node-postgres
   * `query_timeout`), when the server does not answer at all.
   */
  readonly statementTimeoutMs?: number;
  /** Connect timeout (node-postgres `connectionTimeoutMillis` of the client), ms; absent = none. */
  readonly connectTimeoutMs?: number;
  /** Longest wait for a pool connection (pg-pool `connectionTimeoutMillis`), ms; default 10 s. */
  readonly acquireTimeoutMs?: number;
  /** How long a connection may sit idle in the pool before it is closed, ms; default 30 s. */
  readonly idleTimeoutMs?: number;
  /** Connections are created with node-postgres `pipeline: true` (for {@link PipelineLanes}). */
  readonly pipeline?: boolean;
}

/** One database server the handle reaches: its pool and its name in health reports. */
export interface Target {
  /** `primary`, or `replica-<n>` (n its index in DATABASE_READ_URLS). */
  readonly name: string;
  readonly url: string;
  readonly pool: pg.Pool;
  /** Whether it is a read replica (a lost connection takes it out of the rotation). */
  readonly replica: boolean;
}

/**
 * Opens the pool of one target (no connection until the first statement). Idle connections that
 * fail are dropped by the pool and logged at debug level.
 */
export function openTarget(
  name: string,
  url: string,
  options: PoolOptions,
  logger: Logger | undefined,
  replica = false,
): Target {
  const connectTimeoutMs = options.connectTimeoutMs;
  /** The pool's clients, with the connect timeout of their own (the pool's is the acquire timeout). */
  class TargetClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs ?? 0 });
    }
  }
  const statementTimeoutMs = options.statementTimeoutMs ?? 0;
  const pool = new pg.Pool({
    connectionString: url,
    options: SESSION_OPTIONS,
    max: options.poolMax,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 10_000,
    ...(statementTimeoutMs > 0
      ? {
          statement_timeout: statementTimeoutMs,
          query_timeout: statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
        }
      : {}),
    ...(options.pipeline ? { pipeline: true } : {}),
    Client: TargetClient,
  });
  // An idle client's error (the server went away) is the pool's event: without a listener it
  // would be thrown. A checked-out client's error fails its query, and the client is discarded.
  pool.on('error', (err) => logger?.debug({ err, target: name }, 'idle database connection lost'));
  pool.on('connect', (client) => {
    client.on('error', (err) =>
      logger?.debug({ err, target: name }, 'database connection lost between statements'),
    );
  });
  return { name, url, pool, replica };
}

/** Where the handle's new connections go. */
interface Routing {
  /** The target of the next new connection: a healthy replica, else the primary. */
  pick(): Target;
  /** How many more targets a failed connection may be retried on (the replicas). */
  readonly retries: number;
  /** A replica failed a connection or lost one: skip it until its next probe succeeds. */
  lost(target: Target): void;
}

/** Options of {@link createDatabaseHandle}. */
export interface DatabaseHandleOptions {
  readonly routing: Routing;
  /** Pools closed by `close()`. */
  readonly owned: readonly Target[];
  /** Pipelined connections for named statements (0 or absent = none); below the pool size. */
  readonly pipelineLanes?: number;
  /** Fails statements at once while the database is known down; absent = none. */
  readonly breaker?: CircuitBreaker;
  /** Hears every statement's outcome, per target; absent = none. */
  readonly health?: DatabaseHealth;
  /** The server serves every connection from one session (see the module comment). */
  readonly sessionShared?: boolean;
  /** Failed connections are logged at debug level; absent = not logged. */
  readonly logger?: Logger;
}

/** A pool connection and the target it goes to. */
interface Acquired {
  readonly client: pg.PoolClient;
  readonly target: Target;
}

/** A PostgreSQL error code (five digits or upper-case letters), as opposed to a Node one. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * SQLSTATEs of a named statement in a session shared between connections: 42P05
 * duplicate_prepared_statement (another connection prepared the name) and 26000
 * invalid_sql_statement_name (the name was prepared in another session).
 */
const SHARED_SESSION_SQLSTATE = new Set(['42P05', '26000']);

/** The SQLSTATE or Node code of `err`, if it has one. */
function codeOf(err: unknown): string | undefined {
  const code =
    typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The handle of {@link createDatabaseHandle}. */
class PoolDatabase implements Database {
  readonly #options: DatabaseHandleOptions;
  readonly #lanes: PipelineLanes<Acquired> | undefined;
  readonly #observers = new Set<StatementObserver>();
  #shared: boolean;

  constructor(options: DatabaseHandleOptions) {
    this.#options = options;
    const lanes = options.pipelineLanes ?? 0;
    this.#lanes = lanes > 0 ? new PipelineLanes<Acquired>(lanes) : undefined;
    this.#shared = options.sessionShared ?? false;
  }

  get sessionShared(): boolean {
    return this.#shared;
  }

  openConnections(): number {
    return this.#options.owned.reduce((sum, target) => sum + target.pool.totalCount, 0);
  }

  observe(observer: StatementObserver): () => void {
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }

  async execute<T extends object>(
    query: Query,
    values?: readonly unknown[],
  ): Promise<StatementResult<T>> {
    const result = await this.#run(toStatement(query, values), false);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }

  async rows<T extends object>(query: Query, values?: readonly unknown[]): Promise<T[]> {
    return (await this.#run(toStatement(query, values), false)).rows as T[];
  }

  async first<T extends object>(query: Query, values?: readonly unknown[]): Promise<T | undefined> {
    return (await this.rows<T>(query, values))[0];
  }

  async arrays(query: Query, values?: readonly unknown[]): Promise<unknown[][]> {
    return (await this.#run(toStatement(query, values), true)).rows as unknown[][];
  }

  async transaction<T>(work: (tx: Session) => Promise<T>): Promise<T> {
    const acquired = await this.#acquire();
    let lost: unknown;
    const run = async (statement: Statement, arrays: boolean) => {
      try {
        return await this.#send(acquired, statement, arrays);
      } catch (err) {
        if (isConnectionLost(err)) lost ??= err;
        throw err;
      }
    };
    try {
      return await inTransaction(run, () => lost !== undefined, 0, work);
    } finally {
      acquired.client.release(lost === undefined ? undefined : toError(lost));
    }
  }

  async reserve(): Promise<ReservedConnection> {
    const acquired = await this.#acquire();
    const { client } = acquired;
    const listeners: (() => void)[] = [];
    let lost = false;
    let released = false;
    const onEnd = () => {
      if (lost) return;
      lost = true;
      for (const listener of listeners.splice(0)) listener();
    };
    client.on('error', onEnd);
    client.on('end', onEnd);
    const run: Run = async (statement, arrays) => {
      if (released) throw new Error('the reserved connection was released');
      return this.#send(acquired, statement, arrays);
    };
    return {
      ...queryable(run),
      get lost() {
        return lost;
      },
      onLost(listener) {
        if (lost) listener();
        else listeners.push(listener);
      },
      release() {
        if (released) return;
        released = true;
        listeners.length = 0;
        client.off('error', onEnd);
        client.off('end', onEnd);
        // `true`: pg-pool destroys the client instead of returning it to the pool.
        client.release(true);
      },
    };
  }

  async close(): Promise<void> {
    this.#options.breaker?.stop();
    await Promise.all(this.#options.owned.map((target) => target.pool.end()));
  }

  /** Runs one statement: a named one on a lane when the handle has lanes, else on its own connection. */
  async #run(statement: Statement, arrays: boolean): Promise<pg.QueryResult> {
    if (statement.name !== undefined && this.#lanes !== undefined)
      return this.#onLane(this.#lanes, statement, arrays);
    const acquired = await this.#acquire();
    let lost: unknown;
    try {
      return await this.#send(acquired, statement, arrays);
    } catch (err) {
      if (isConnectionLost(err)) lost = err;
      throw err;
    } finally {
      acquired.client.release(lost === undefined ? undefined : toError(lost));
    }
  }

  /**
   * Runs a named statement on a lane (see {@link PipelineLanes.take}). The connection goes back
   * to the pool when no statement is left on it, also after errors; after a lost connection no new
   * statement joins it, and the pool discards it on release.
   */
  async #onLane(
    lanes: PipelineLanes<Acquired>,
    statement: Statement,
    arrays: boolean,
  ): Promise<pg.QueryResult> {
    const lane: Lane<Acquired> & { lost?: unknown } = lanes.take(() => this.#acquire());
    let acquired: Acquired;
    try {
      acquired = await lane.connection;
    } catch (err) {
      // No connection (acquire timeout): nothing to release; the lane's other statements fail too.
      lane.inflight -= 1;
      lanes.drop(lane);
      throw err;
    }
    try {
      return await this.#send(acquired, statement, arrays);
    } catch (err) {
      if (isConnectionLost(err)) {
        lane.lost ??= err;
        lanes.drop(lane);
      }
      throw err;
    } finally {
      lane.inflight -= 1;
      if (lane.inflight === 0) {
        lanes.drop(lane);
        acquired.client.release(lane.lost === undefined ? undefined : toError(lane.lost));
      }
    }
  }

  /**
   * A connection of the pool of the next target (see {@link Routing}), admitted by the breaker:
   * a replica that cannot be reached is skipped and the next target tried.
   *
   * @throws DependencyUnavailableError while the breaker is open; the pool's acquire timeout
   *         error; the connection error of the last target tried.
   */
  async #acquire(): Promise<Acquired> {
    const { breaker, routing, logger } = this.#options;
    breaker?.admit();
    for (let attempt = 0; ; attempt += 1) {
      const target = routing.pick();
      try {
        return { client: await target.pool.connect(), target };
      } catch (err) {
        logger?.debug({ err, target: target.name }, 'database connection failed');
        const lost = isConnectionLost(err);
        if (target.replica && lost && attempt < routing.retries) {
          routing.lost(target);
          continue;
        }
        if (lost) {
          if (target.replica) routing.lost(target);
          breaker?.failed(err);
        }
        throw err;
      }
    }
  }

  /**
   * Sends `statement` on the acquired connection and reports its outcome: named, unless the
   * server shares one session between connections; a named statement that meets a shared session
   * (42P05, 26000) marks the handle so and runs again unnamed (nothing ran: the error came at
   * `Parse` or `Bind`).
   */
  async #send(acquired: Acquired, statement: Statement, arrays: boolean): Promise<pg.QueryResult> {
    for (const observer of this.#observers) observer(statement);
    const config = {
      text: statement.text,
      values: statement.values as unknown[],
      ...(arrays ? { rowMode: 'array' as const } : {}),
    };
    try {
      let result: pg.QueryResult;
      if (statement.name === undefined || this.#shared) {
        result = await acquired.client.query(config);
      } else {
        try {
          result = await acquired.client.query({ name: statement.name, ...config });
        } catch (err) {
          const code = codeOf(err);
          if (code === undefined || !SHARED_SESSION_SQLSTATE.has(code)) throw err;
          this.#sharedSessionDetected(code);
          result = await acquired.client.query(config);
        }
      }
      this.#options.breaker?.succeeded();
      this.#options.health?.answered(acquired.target.name);
      return result;
    } catch (err) {
      this.#failed(acquired.target, err);
      throw err;
    }
  }

  /**
   * A named statement met another connection's statement of the same name (42P05) or missed
   * its own (26000): the server shares one session between connections; from now on the
   * handle's statements are unnamed. Logged once per handle.
   */
  #sharedSessionDetected(code: string): void {
    if (this.#shared) return;
    this.#shared = true;
    this.#options.logger?.warn(
      { code },
      'the database serves every connection from one session: prepared statements now run unnamed',
    );
  }

  /**
   * A statement on `target` failed with `err`: an error of the server (a SQLSTATE of its own)
   * still proves it answers, and counts against its target's health (db/target-health.ts); a
   * lost link counts as a failure of the database (or, on a replica, takes that replica out of
   * the rotation).
   */
  #failed(target: Target, err: unknown): void {
    const { breaker, routing, health } = this.#options;
    if (!isConnectionLost(err)) {
      const code = codeOf(err);
      if (code !== undefined && SQLSTATE.test(code)) {
        breaker?.succeeded();
        health?.failed(target.name, code);
      }
      return;
    }
    if (target.replica) routing.lost(target);
    else breaker?.failed(err);
  }
}

/** `err` as an Error (pg-pool's `release(err)` discards the client when given a truthy value). */
function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** Runs one statement on a transaction's connection. */
type Run = (statement: Statement, arrays: boolean) => Promise<pg.QueryResult>;

/**
 * Runs `work` in a transaction (depth 0: BEGIN/COMMIT/ROLLBACK) or a savepoint (depth > 0) on the
 * connection of `run`; no rollback is sent once the connection is lost.
 */
async function inTransaction<T>(
  run: Run,
  lost: () => boolean,
  depth: number,
  work: (tx: Session) => Promise<T>,
): Promise<T> {
  const savepoint = `savepoint_${depth}`;
  const send = (text: string) => run({ text, values: [] }, false);
  await send(depth === 0 ? 'begin' : `savepoint ${savepoint}`);
  try {
    const result = await work({
      ...queryable(run),
      transaction: (inner) => inTransaction(run, lost, depth + 1, inner),
    });
    await send(depth === 0 ? 'commit' : `release savepoint ${savepoint}`);
    return result;
  } catch (err) {
    if (!lost())
      await send(depth === 0 ? 'rollback' : `rollback to savepoint ${savepoint}`).catch(
        () => undefined,
      );
    throw err;
  }
}

/** The {@link Queryable} methods over one function that runs a statement. */
function queryable(run: Run): Queryable {
  return {
    async execute<T extends object>(query: Query, values?: readonly unknown[]) {
      const result = await run(toStatement(query, values), false);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async rows<T extends object>(query: Query, values?: readonly unknown[]) {
      return (await run(toStatement(query, values), false)).rows as T[];
    },
    async first<T extends object>(query: Query, values?: readonly unknown[]) {
      return (await run(toStatement(query, values), false)).rows[0] as T | undefined;
    },
    async arrays(query: Query, values?: readonly unknown[]) {
      return (await run(toStatement(query, values), true)).rows as unknown[][];
    },
  };
}

/** A handle over the targets of `options.routing` (see the module comment). */
export function createDatabaseHandle(options: DatabaseHandleOptions): Database {
  return new PoolDatabase(options);
}
