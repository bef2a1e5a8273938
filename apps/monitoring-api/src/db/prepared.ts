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

/** The part of a node-postgres client this module uses. */
interface PgConnection {
  query(config: {
    name: string;
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
}

/** Runs one named statement on a pooled connection; the connection is released either way. */
async function run(
  knex: Knex,
  statement: PreparedStatement,
  values: readonly unknown[],
  arrays: boolean,
): Promise<unknown[]> {
  const pool = knex.client as KnexPool;
  // knex's 'query' event, as for its own queries, so query logging and tests observe these too.
  pool.emit('query', { sql: statement.text, bindings: values, method: 'raw' });
  const connection = await pool.acquireConnection();
  try {
    const result = await connection.query({
      name: statement.name,
      text: statement.text,
      values,
      ...(arrays ? { rowMode: 'array' as const } : {}),
    });
    return result.rows;
  } finally {
    await pool.releaseConnection(connection);
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
