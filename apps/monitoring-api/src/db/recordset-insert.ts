/**
 * Multi-row INSERTs whose rows go in as ONE JSON array parameter expanded against the table's own
 * row type (`jsonb_populate_recordset(null::<table>, $1::jsonb)`): one statement text whatever the
 * row count, no 65,535-parameter limit, each value parsed by its column's input function
 * (docs/decisions.md "D250. The indexer, the rank job and the seed on the database layer"). Used
 * by the indexer's batch writes (indexer/store.ts) and the seed (seed/writer.ts).
 */
import type { Queryable } from './statements.js';

/**
 * `rows` as the JSON text of a `jsonb_populate_recordset` parameter: bigints as decimal strings
 * (read back by the column's own input function, so no precision is lost), dates as ISO 8601.
 */
function recordsetJson(rows: readonly object[]): string {
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/**
 * The text of an INSERT of the rows of `$1` (a JSON array of objects keyed by column name) into
 * `table`'s `columns`, followed by `tail` on a line of its own when given (an `on conflict` and
 * `returning` clause; its continuation lines keep their own indentation). Keys not in `columns`
 * are ignored; a column missing from a row takes null (not the column default).
 *
 * @param table a table name (SQL text, not quoted): also the row type the JSON is expanded against.
 * @param columns column names (SQL text, not quoted).
 */
export function recordsetInsertSql(
  table: string,
  columns: readonly string[],
  tail?: string,
): string {
  const list = columns.join(', ');
  const insert = `insert into ${table} (${list})
  select ${list} from jsonb_populate_recordset(null::${table}, $1::jsonb)`;
  return tail === undefined ? insert : `${insert}\n  ${tail}`;
}

/** What {@link insertRecordset} did. */
export interface RecordsetInsertResult<R> {
  /** Rows sent. */
  readonly sent: number;
  /** The rows the statements returned (a `returning` clause), in statement order; else empty. */
  readonly returned: R[];
}

/**
 * Runs `sql` (a {@link recordsetInsertSql} text) for `rows`, `chunkRows` rows per statement, so no
 * one statement (and its JSON parameter) grows without bound; `rows` is read lazily, one chunk in
 * memory at a time.
 *
 * @throws the database error of a statement (the chunks before stay written unless `db` is a
 *         transaction that is rolled back).
 */
export async function insertRecordset<R extends object = Record<string, unknown>>(
  db: Queryable,
  sql: string,
  rows: Iterable<object>,
  chunkRows: number,
): Promise<RecordsetInsertResult<R>> {
  const returned: R[] = [];
  let sent = 0;
  let chunk: object[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    returned.push(...(await db.rows<R>(sql, [recordsetJson(chunk)])));
    sent += chunk.length;
    chunk = [];
  };
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length >= chunkRows) await flush();
  }
  await flush();
  return { sent, returned };
}
