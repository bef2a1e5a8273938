/** Statements on several connections of one database handle at once. */
import type { Database } from '../../src/db/database.js';

/**
 * Runs `text` `n` times at once on `database`: every acquisition is made before any connection is
 * open, so each statement runs on a separate pool connection chosen by the handle's routing
 * (no transaction is held, so this works on the embedded database's one session too). Returns
 * the first column of each answer's first row, in the order the statements were sent.
 *
 * @throws the error of any statement.
 */
export async function onHeldConnections(
  database: Database,
  n: number,
  text: string,
): Promise<unknown[]> {
  const answers = await Promise.all(Array.from({ length: n }, () => database.arrays(text)));
  return answers.map(([row]) => row?.[0]);
}
