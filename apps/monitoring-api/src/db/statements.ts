/**
 * The statement shapes the database layer runs (db/database.ts), and the query builder for SQL that
 * is assembled at run time (docs/architecture.md "Database layer"):
 *
 * - fixed SQL: a text constant with `$n` placeholders, run with its values;
 * - hot read paths: a {@link PreparedStatement} (a text with a name derived from it), which the
 *   layer sends as a named statement so PostgreSQL parses and plans it once per connection
 *   (PostgreSQL protocol "Extended Query", `Parse` with a statement name; node-postgres
 *   `{ name, text, values }`); where the server shares one session between connections it runs
 *   unnamed (db/database.ts);
 * - a knex query (a builder without a connection, `knex({ client: 'pg' })`), compiled with its
 *   public `.toSQL().toNative()` to `{ sql, bindings }`.
 */
import { createHash } from 'node:crypto';

/** A named statement: its name (unique per text) and SQL with `$n` placeholders. */
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

/** A knex query (builder or raw) the layer compiles to text and values. */
interface CompilableQuery {
  toSQL(): { toNative(): { sql: string; bindings: readonly unknown[] } };
}

/**
 * What a {@link Queryable} method runs: SQL text (bound with the method's `values`), a
 * {@link PreparedStatement} (likewise), or a knex query (its own bindings).
 */
export type Query = string | PreparedStatement | CompilableQuery;

/** One statement ready to send: its text, values and, for a named statement, its name. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly name?: string;
}

/**
 * The statement `query` stands for with `values`.
 *
 * @throws Error when a knex query is given `values` (it carries its own bindings).
 */
export function toStatement(query: Query, values: readonly unknown[] = []): Statement {
  if (typeof query === 'string') return { text: query, values };
  if ('toSQL' in query) {
    if (values.length > 0) throw new Error('a knex query carries its own bindings');
    const native = query.toSQL().toNative();
    return { text: native.sql, values: native.bindings };
  }
  return { text: query.text, values, name: query.name };
}

/** The result of a statement: its rows (objects by column name) and affected row count. */
export interface StatementResult<T> {
  readonly rows: T[];
  /** Rows inserted, updated, deleted or returned (node-postgres `rowCount`; 0 when none). */
  readonly rowCount: number;
}

/**
 * Runs statements: the pool behind a {@link import('./database.js').Database}, or the one
 * connection of a transaction.
 */
export interface Queryable {
  /**
   * Runs `query` and returns its rows and row count.
   *
   * @throws the PostgreSQL error of the statement, a connection error, or 503
   *         DependencyUnavailableError while the database is known down (db/circuit-breaker.ts).
   */
  execute<T extends object = Record<string, unknown>>(
    query: Query,
    values?: readonly unknown[],
  ): Promise<StatementResult<T>>;
  /**
   * Runs `query` and returns its rows as objects keyed by column name. `T` is the caller's
   * description of the select list (not checked at run time).
   *
   * @throws as {@link Queryable.execute}.
   */
  rows<T extends object = Record<string, unknown>>(
    query: Query,
    values?: readonly unknown[],
  ): Promise<T[]>;
  /**
   * Runs `query` and returns its first row, or undefined when it returns none.
   *
   * @throws as {@link Queryable.execute}.
   */
  first<T extends object = Record<string, unknown>>(
    query: Query,
    values?: readonly unknown[],
  ): Promise<T | undefined>;
  /**
   * Runs `query` and returns its rows as arrays (columns in select order; values as node-postgres
   * parses them: int8 and numeric as decimal strings, int2/int4 and float8 as numbers, booleans,
   * text, timestamptz as Date).
   *
   * @throws as {@link Queryable.execute}.
   */
  arrays(query: Query, values?: readonly unknown[]): Promise<unknown[][]>;
}

/**
 * A {@link Queryable} that can open a transaction: a database handle (BEGIN ... COMMIT on one of
 * its connections), or a transaction (a SAVEPOINT inside it).
 */
export interface Session extends Queryable {
  /**
   * Runs `work` in a transaction on one connection (BEGIN, then COMMIT when `work` resolves,
   * ROLLBACK when it throws; inside a transaction: SAVEPOINT, RELEASE, ROLLBACK TO SAVEPOINT) and
   * returns what `work` returns.
   *
   * @throws what `work` throws (after the rollback), or what the transaction statements throw.
   */
  transaction<T>(work: (tx: Session) => Promise<T>): Promise<T>;
}
