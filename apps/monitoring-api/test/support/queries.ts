/** The SQL a test's requests make: which statements reach the database, for single-flight checks. */
import type { Database } from '../../src/db/database.js';

/** The statements collected by {@link watchQueries}. */
export interface QueryWatch {
  /** The SQL of each query so far that contained the watched text, in the order they ran. */
  readonly queries: string[];
  /** Stops collecting. */
  readonly stop: () => void;
}

/** Starts collecting the SQL of every statement `database` sends that contains `sqlPart`. */
export function watchQueries(database: Database, sqlPart: string): QueryWatch {
  const queries: string[] = [];
  const stop = database.observe((statement) => {
    if (statement.text.includes(sqlPart)) queries.push(statement.text);
  });
  return { queries, stop };
}
