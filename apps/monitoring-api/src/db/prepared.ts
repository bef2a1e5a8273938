/**
 * Named prepared statements on the hot read paths (the feeds and the statistics), run on a
 * connection of a knex pool so the pool, its size, the replica routing of `createDatabases` and
 * the statement timeout stay the same as for every other query.
 *
 * Why: knex sends each query as an unnamed statement, so PostgreSQL parses and plans it on every
 * request (about 150-250 us of server CPU for a 0.05 ms keyset scan), and the knex builder and
 * runner add Node CPU per request (packages/bench/FINDINGS.md). A named statement is parsed once
 * per connection (PostgreSQL protocol "Extended Query", `Parse` with a statement name; node-postgres
 * `{ name, text, values }`), and its plan is cached by the server.
 *
 * A named statement lives in the server's session, not in the client connection: where the server
 * serves every connection from one session (the embedded PGlite, db/session-server.ts;
 * docs/architecture.md "Embedded defaults"), a connection the pool closed leaves its statements
 * behind, and the next connection's `Parse` of the same name fails with 42P05
 * duplicate_prepared_statement. On such a pool (db/connect.ts `sessionShared`) the statements run
 * unnamed; a pool not told so learns it from the first 42P05 (or 26000, a name missing from
 * the session it was prepared on) and runs that statement again unnamed.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/** A statement: its name (unique per text) and SQL with `$n` placeholders. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Names `text` by its SHA-256 (node-postgres requires one text per name on a connection, and
 * PostgreSQL limits names to 63 bytes).
 *
 * @param prefix a short tag shown in `pg_prepared_statements` (letters, digits, `_`).
 */
export function prepare(prefix: string, text: string): PreparedStatement {
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 24);
  return { name: `${prefix}_${digest}`, text };
}

/** The part of a node-postgres client this module uses (a pool connection). */
export interface PgConnection {
  query(config: {
    name?: string;
    text: string;
    values: readonly unknown[];
    rowMode?: 'array';
  }): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client this module uses (public methods of `knex.client`). */
interface KnexPool {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  emit(event: 'query', data: { sql: string; bindings: readonly unknown[]; method: 'raw' }): boolean;
  /** The pool's pipelined lanes (db/connect.ts creates them with the pool); absent = none. */
  readonly pipelineLanes?: PipelineLanes;
  /** The server answered a statement on `connection` (db/connect.ts: the breaker and health hear it). */
  queryAnswered?(connection: PgConnection): void;
  /** A statement on `connection` failed (db/connect.ts: a lost link discards the connection). */
  queryFailed?(connection: PgConnection, err: unknown): void;
  /** The server shares one session between connections (db/connect.ts); absent = false. */
  readonly sessionShared?: boolean;
  /** A name clash showed the server shares one session (db/connect.ts); later statements are unnamed. */
  sessionSharedDetected?(err: unknown): void;
}

/**
 * A pool connection the statements in flight share. With node-postgres `pipeline: true` a
 * statement is written without waiting for the ones before it to finish, so the server reads
 * several per wake-up instead of sleeping between them (PostgreSQL protocol "Pipelining"; on this
 * project's benchmark machine a wake-up costs PostgreSQL more than a feed page's query itself:
 * packages/bench/FINDINGS.md).
 */
export interface Lane {
  /** The pool connection, once acquired (statements joining the lane wait for it too). */
  readonly connection: Promise<PgConnection>;
  /** Statements on the lane and not yet answered. */
  inflight: number;
}

/**
 * The lanes of one knex pool: at most `max` of its connections carry pipelined statements. The
 * pool's connections must be created with node-postgres `pipeline: true`; `createKnex`'s
 * `pipelineLanes` does both, so each pool owns its lanes (one object per pool, made with it).
 *
 * Keep `max` below the pool size: the other connections serve knex's own queries while the
 * lanes are busy. PostgreSQL runs one statement per connection at a time, so more lanes than the
 * server's cores add no parallelism, only fewer statements per wake-up.
 */
export class PipelineLanes {
  readonly #open: Lane[] = [];

  /** @param max most connections used as lanes (at least 1). */
  constructor(readonly max: number) {}

  /**
   * The lane a statement runs on: an idle lane, else a new connection from `acquire` while fewer
   * than `max` lanes are open, else the least busy lane (pipelined behind the statements on it),
   * the way postgres.js picks connections.
   */
  take(acquire: () => Promise<PgConnection>): Lane {
    let least: Lane | undefined;
    for (const lane of this.#open) {
      if (least === undefined || lane.inflight < least.inflight) least = lane;
    }
    if (least !== undefined && (least.inflight === 0 || this.#open.length >= this.max)) {
      least.inflight += 1;
      return least;
    }
    const lane: Lane = { connection: acquire(), inflight: 1 };
    this.#open.push(lane);
    return lane;
  }

  /** Takes `lane` out of the open lanes (no new statement goes to it). */
  drop(lane: Lane): void {
    const index = this.#open.indexOf(lane);
    if (index >= 0) this.#open.splice(index, 1);
  }
}

/**
 * The lane a statement runs on: one of the pool's {@link PipelineLanes}, or without lanes a
 * connection to itself.
 */
function takeLane(pool: KnexPool): Lane {
  const acquire = () => pool.acquireConnection();
  return pool.pipelineLanes?.take(acquire) ?? { connection: acquire(), inflight: 1 };
}

/** Takes `lane` out of its pool's open lanes (no new statement goes to it). */
function dropLane(pool: KnexPool, lane: Lane): void {
  pool.pipelineLanes?.drop(lane);
}

/**
 * SQLSTATE classes that mean the connection is gone, not that the statement failed: 08
 * (connection exception) and 57P (operator intervention: shutdown, terminated backend).
 */
const LINK_SQLSTATE = /^(08|57P)/;

/**
 * SQLSTATEs of a named statement in a session shared between connections: 42P05
 * duplicate_prepared_statement (another connection prepared the name) and 26000
 * invalid_sql_statement_name (the name was prepared in another session).
 */
const SHARED_SESSION_SQLSTATE = new Set(['42P05', '26000']);

/** The SQLSTATE of `err`, if it has one. */
function codeOf(err: unknown): string | undefined {
  const code =
    typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `err` leaves the connection usable (a PostgreSQL error about this statement). */
function isStatementError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && !LINK_SQLSTATE.test(code);
}

/**
 * Sends `statement` on `connection`: named, unless the pool's server shares one session between
 * connections; a named statement that meets a shared session (42P05, 26000) tells the pool and
 * runs again unnamed (nothing ran: the error came at `Parse` or `Bind`).
 */
async function send(
  pool: KnexPool,
  connection: PgConnection,
  statement: PreparedStatement,
  values: readonly unknown[],
  arrays: boolean,
): Promise<{ rows: unknown[] }> {
  const config = {
    text: statement.text,
    values,
    ...(arrays ? { rowMode: 'array' as const } : {}),
  };
  if (pool.sessionShared === true) return connection.query(config);
  try {
    return await connection.query({ name: statement.name, ...config });
  } catch (err) {
    const code = codeOf(err);
    if (code === undefined || !SHARED_SESSION_SQLSTATE.has(code)) throw err;
    pool.sessionSharedDetected?.(err);
    return connection.query(config);
  }
}

/**
 * Runs one named statement on a lane of the pool (see {@link takeLane}). The connection goes back
 * to the pool when no statement is left on it, also after errors; after a connection-level
 * error no new statement joins it, and knex's pool discards it on release.
 */
async function run(
  knex: Knex,
  statement: PreparedStatement,
  values: readonly unknown[],
  arrays: boolean,
): Promise<unknown[]> {
  const pool = knex.client as KnexPool;
  // knex's 'query' event, as for its own queries, so query logging and tests observe these too.
  pool.emit('query', { sql: statement.text, bindings: values, method: 'raw' });
  const lane = takeLane(pool);
  let connection: PgConnection;
  try {
    connection = await lane.connection;
  } catch (err) {
    // No connection (acquire timeout): nothing to release; the lane's other statements fail too.
    lane.inflight -= 1;
    dropLane(pool, lane);
    throw err;
  }
  try {
    const result = await send(pool, connection, statement, values, arrays);
    pool.queryAnswered?.(connection);
    return result.rows;
  } catch (err) {
    pool.queryFailed?.(connection, err);
    if (!isStatementError(err)) dropLane(pool, lane);
    throw err;
  } finally {
    lane.inflight -= 1;
    if (lane.inflight === 0) {
      dropLane(pool, lane);
      await pool.releaseConnection(connection);
    }
  }
}

/**
 * Runs `statement` with `values` on a connection of `knex`'s pool and returns its rows as arrays
 * (columns in select order, values as node-postgres parses them: int8 and numeric as decimal
 * strings, int2/int4 and float8 as numbers, booleans, text, timestamptz as Date).
 *
 * @throws the pool's acquire timeout error, or the PostgreSQL error of the statement (the
 *         connection goes back to the pool either way).
 */
export async function queryPrepared(
  knex: Knex,
  statement: PreparedStatement,
  values: readonly unknown[],
): Promise<unknown[][]> {
  return (await run(knex, statement, values, true)) as unknown[][];
}

/**
 * Like {@link queryPrepared}, with rows as objects keyed by column name. `T` is the caller's
 * description of the select list (not checked at run time).
 */
export async function queryPreparedRows<T extends object>(
  knex: Knex,
  statement: PreparedStatement,
  values: readonly unknown[],
): Promise<T[]> {
  return (await run(knex, statement, values, false)) as T[];
}
