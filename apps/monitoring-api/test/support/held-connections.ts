/** Statements on several connections of one database handle held at once. */
import type { Database } from '../../src/db/database.js';

/**
 * Runs `text` on `n` connections of `database` held at the same time (each in a transaction that
 * stays open until all `n` have answered), so each is a separate pool connection chosen by the
 * handle's routing; returns the first column of each answer's first row, in answer order.
 *
 * @throws the error of any statement (the other transactions are rolled back).
 */
export async function onHeldConnections(
  database: Database,
  n: number,
  text: string,
): Promise<unknown[]> {
  const answers: unknown[] = [];
  let allAnswered!: () => void;
  const answered = new Promise<void>((resolve) => {
    allAnswered = resolve;
  });
  const held = Array.from({ length: n }, () =>
    database.transaction(async (tx) => {
      const [row] = await tx.arrays(text);
      answers.push(row?.[0]);
      if (answers.length === n) allAnswered();
      await answered;
    }),
  );
  await Promise.race([answered, Promise.all(held)]);
  await Promise.all(held);
  return answers;
}
