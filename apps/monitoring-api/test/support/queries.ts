/** The SQL a test's requests make: which statements reach the database, for single-flight checks. */
import type { Knex } from 'knex';

/** The statements collected by {@link watchQueries}. */
export interface QueryWatch {
  /** The SQL of each query so far that contained the watched text, in the order they ran. */
  readonly queries: string[];
  /** Stops collecting. */
  readonly stop: () => void;
}

/** Starts collecting the SQL of every query on `knex` that contains `sqlPart`. */
export function watchQueries(knex: Knex, sqlPart: string): QueryWatch {
  const queries: string[] = [];
  const listener = (q: { sql: string }) => {
    if (q.sql.includes(sqlPart)) queries.push(q.sql);
  };
  knex.on('query', listener);
  return { queries, stop: () => void knex.off('query', listener) };
}
