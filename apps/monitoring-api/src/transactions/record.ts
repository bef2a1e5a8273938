/**
 * The transaction records of docs/api.md "Transaction record" as SQL: the feed statement turns each
 * row into its JSON object inside PostgreSQL, so the API receives a page's records as text
 * instead of parsing 20-odd columns per row (node-postgres spent about 9 us per row here, the
 * largest per-row cost of a feed page: packages/bench/FINDINGS.md).
 *
 * The object is concatenated from each field's JSON text in the order listed here, which costs
 * PostgreSQL about a quarter less per row than `row_to_json` over the same fields (that looks
 * up each column's JSON category again for every row; measured in
 * packages/bench/FINDINGS.md). Amounts (int8 and numeric(78,0)) are written as their exact decimal digits, so they stay exact above 2^53
 * without passing through a JS Number or BigInt; text goes through PostgreSQL's JSON string
 * escaping (`to_json`); a NULL is `null`; `created_at` is ISO 8601 UTC with milliseconds, like
 * `Date.prototype.toISOString` (the column is whole seconds).
 */

import { TestnetTransactionRecord, TransactionRecord } from '@ctss/domain-types';

/**
 * One field of a record: its JSON name and the SQL of its JSON value as text over the row alias
 * `t` (never NULL: a NULL column gives `null`).
 */
export interface RecordField {
  readonly name: string;
  readonly json: string;
}

/** A number or boolean column: its text output is its JSON text (int8, numeric, bool). */
const plain = (name: string): RecordField => ({
  name,
  json: `coalesce(t.${name}::text, 'null')`,
});

/** A text column, escaped as a JSON string. */
const text = (name: string): RecordField => ({
  name,
  json: `coalesce(to_json(t.${name})::text, 'null')`,
});

/** `created_at` (timestamptz(0)) as `"YYYY-MM-DDTHH:MM:SS.000Z"`. */
const CREATED_AT: RecordField = {
  name: 'created_at',
  json: `coalesce('"' || to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') || '"', 'null')`,
};

/** A timestamptz column as `"YYYY-MM-DDTHH:MM:SS.mmmZ"` (ISO 8601 UTC, milliseconds). */
const timestamp = (name: string): RecordField => ({
  name,
  json: `coalesce('"' || to_char(t.${name} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`,
});

/** `fee_executed`: v1 has no Circle fee (0); v2's column, null until received. */
const FEE_EXECUTED: RecordField = {
  name: 'fee_executed',
  json: `case when t.version = 1 then '0' else coalesce(t.fee_executed::text, 'null') end`,
};

/**
 * The JSON kind of every field of the record (docs/api.md "Transaction record"), each defined once; `satisfies` makes a field
 * added to the shared schema without a kind here a compile error.
 */
const COLUMNS = {
  id: plain('id'),
  source_tx_hash: text('source_tx_hash'),
  destination_tx_hash: text('destination_tx_hash'),
  gas_drop_tx_hash: text('gas_drop_tx_hash'),
  source_domain: plain('source_domain'),
  destination_domain: plain('destination_domain'),
  sender: text('sender'),
  recipient: text('recipient'),
  deposit_amount: plain('deposit_amount'),
  receive_amount: plain('receive_amount'),
  relayer_fee: plain('relayer_fee'),
  gas_drop_amount: plain('gas_drop_amount'),
  is_gas_drop_in_native: plain('is_gas_drop_in_native'),
  max_fee: plain('max_fee'),
  version: plain('version'),
  confirmed: plain('confirmed'),
  has_source_tx_error: plain('has_source_tx_error'),
  has_attestation_error: plain('has_attestation_error'),
  has_destination_tx_error: plain('has_destination_tx_error'),
  destination_tx_status: text('destination_tx_status'),
  created_at: CREATED_AT,
  attested_at: timestamp('attested_at'),
  received_at: timestamp('received_at'),
  updated_at: timestamp('updated_at'),
  message_hash: text('message_hash'),
  nonce: { name: 'nonce', json: `coalesce(to_json(t.cctp_nonce)::text, 'null')` },
  fee_executed: FEE_EXECUTED,
  min_finality_threshold: plain('min_finality_threshold'),
} as const satisfies Record<keyof TransactionRecord, RecordField>;

/**
 * The fields of a record schema in its key order: the shared schemas list them in the order of docs/api.md "Transaction record",
 * and the OpenAPI document is generated from the same schemas.
 */
const fieldsOf = (schema: { shape: object }): readonly RecordField[] =>
  Object.keys(schema.shape).map((name) => COLUMNS[name as keyof typeof COLUMNS]);

/** The full mainnet record, in documented order (`TransactionRecord`). */
export const MAINNET_FIELDS: readonly RecordField[] = fieldsOf(TransactionRecord);

/** The testnet subset record (docs/api.md "Transaction feeds": the `/transactions` field list), in its order. */
export const TESTNET_FIELDS: readonly RecordField[] = fieldsOf(TestnetTransactionRecord);

/**
 * The SQL of a record's JSON object text for the row alias `t`: `{"<name>":<value>,...}` with the
 * fields in order. Names are this module's fixed identifiers (never user input), so they need no
 * escaping.
 */
export function recordJsonSql(fields: readonly RecordField[]): string {
  const parts = fields.map((f, i) => `'${i === 0 ? '{' : ','}"${f.name}":' || ${f.json}`);
  return `${parts.join(' || ')} || '}'`;
}
