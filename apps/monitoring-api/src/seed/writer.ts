/**
 * Writes generated records: batched INSERTs of a JSON array of rows expanded against the table's
 * row type (db/recordset-insert.ts; works everywhere, also on the embedded PGlite), or COPY
 * FROM STDIN through pg-copy-streams for millions of rows on a real server.
 * Both go through the table's triggers, so rollups and sender counts are exact afterwards.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { insertRecordset, recordsetInsertSql } from '../db/recordset-insert.js';
import type { Queryable } from '../db/statements.js';
import type { SeedTransaction } from './transactions.js';

/** Column order of both writers. */
const COLUMNS = [
  'network',
  'source_tx_hash',
  'destination_tx_hash',
  'gas_drop_tx_hash',
  'source_domain',
  'destination_domain',
  'sender',
  'recipient',
  'deposit_amount',
  'receive_amount',
  'relayer_fee',
  'gas_drop_amount',
  'is_gas_drop_in_native',
  'max_fee',
  'version',
  'confirmed',
  'has_source_tx_error',
  'has_attestation_error',
  'has_destination_tx_error',
  'destination_tx_status',
  'created_at',
] as const satisfies readonly (keyof SeedTransaction)[];

/** Inserts the records of `$1` (a JSON array of {@link COLUMNS} objects). */
const INSERT_SQL = recordsetInsertSql('transactions', COLUMNS);

/**
 * Inserts `records` in INSERTs of `batchSize` rows.
 *
 * @returns the number written.
 * @throws database errors (the batches before stay written).
 */
export async function insertTransactions(
  db: Queryable,
  records: Iterable<SeedTransaction>,
  batchSize = 1_000,
): Promise<number> {
  const rows = function* () {
    for (const record of records)
      yield Object.fromEntries(COLUMNS.map((column) => [column, record[column]]));
  };
  return (await insertRecordset(db, INSERT_SQL, rows(), batchSize)).sent;
}

/** One value in COPY text format (values are alphanumeric: no escaping needed). */
function copyValue(value: SeedTransaction[keyof SeedTransaction]): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** Yields COPY text in chunks of `rowsPerChunk` lines. */
function* copyChunks(
  records: Iterable<SeedTransaction>,
  counter: { rows: number },
  rowsPerChunk = 2_000,
): Generator<string> {
  let lines: string[] = [];
  for (const record of records) {
    lines.push(COLUMNS.map((column) => copyValue(record[column])).join('\t'));
    counter.rows += 1;
    if (lines.length >= rowsPerChunk) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

/**
 * Streams `records` into `transactions` with COPY FROM STDIN on its own connection to `url`, in
 * statements of `rowsPerStatement` rows (each statement's trigger aggregates its rows at once).
 * Needs a real PostgreSQL server (the embedded socket server does not speak COPY).
 *
 * @returns the number of rows written.
 */
export async function copyTransactions(
  url: string,
  records: Iterable<SeedTransaction>,
  rowsPerStatement = 200_000,
): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  // A connection-level error also fails the running COPY (rethrown below), instead of crashing
  // the process as an unhandled 'error' event.
  let connectionError: Error | undefined;
  client.on('error', (err: Error) => {
    connectionError = err;
  });
  await client.connect();
  const iterator = records[Symbol.iterator]();
  const counter = { rows: 0 };
  try {
    for (;;) {
      const before = counter.rows;
      const slice: Iterable<SeedTransaction> = {
        *[Symbol.iterator]() {
          for (let i = 0; i < rowsPerStatement; i += 1) {
            const next = iterator.next();
            if (next.done) return;
            yield next.value;
          }
        },
      };
      const copy = client.query(copyFrom(`copy transactions (${COLUMNS.join(', ')}) from stdin`));
      await pipeline(Readable.from(copyChunks(slice, counter)), copy);
      if (connectionError) throw connectionError;
      if (counter.rows === before || counter.rows - before < rowsPerStatement) break;
    }
  } finally {
    await client.end();
  }
  return counter.rows;
}

/**
 * Runs `load` with the secondary indexes of `transactions` dropped, then rebuilds them from their
 * saved definitions (pg_indexes): building an index by sorting is much faster than millions of
 * random B-tree inserts. Only for bulk loads into an empty table; the definitions come from the
 * database, so they stay those of the migrations. Run it on a handle without a statement timeout
 * (an index build over millions of rows takes a while).
 *
 * @returns what `load` returns.
 * @throws the error of a drop or of `load`, else the first error of a rebuild: every index dropped
 *         is rebuilt (each attempted even when another fails) before anything is thrown.
 */
export async function withIndexesDeferred<T>(db: Queryable, load: () => Promise<T>): Promise<T> {
  const indexes = await db.rows<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef
       from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = 'transactions'
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  const dropped: string[] = [];
  const errors: unknown[] = [];
  let result: T | undefined;
  try {
    for (const index of indexes) {
      await db.execute(`drop index ${pg.escapeIdentifier(index.indexname)}`);
      dropped.push(index.indexdef);
    }
    result = await load();
  } catch (err) {
    errors.push(err);
  }
  for (const definition of dropped) {
    try {
      await db.execute(definition);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
  return result as T;
}
