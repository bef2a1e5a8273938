/**
 * The transaction records of SPEC.md "Transaction record" as SQL: the feed statement turns each
 * row into its JSON object inside PostgreSQL (`row_to_json` over exactly these fields, in this
 * order), so the API receives a page as one text value instead of parsing 20-odd columns per row
 * (node-postgres spent about 9 us per row here, the largest per-row cost of a feed page:
 * packages/bench/FINDINGS.md).
 *
 * Amounts (int8 and numeric(78,0)) are written by PostgreSQL as their exact decimal digits, so
 * they stay exact above 2^53 without passing through a JS Number or BigInt; text is escaped by
 * PostgreSQL's JSON writer; `created_at` is written as ISO 8601 UTC with milliseconds, like
 * `Date.prototype.toISOString` (the column is whole seconds).
 */

/** One field of a record: its JSON name and its SQL expression over the row alias `t`. */
export interface RecordField {
  readonly name: string;
  readonly sql: string;
}

const column = (name: string): RecordField => ({ name, sql: `t.${name}` });

/** `created_at` (timestamptz(0)) as `YYYY-MM-DDTHH:MM:SS.000Z`. */
const CREATED_AT: RecordField = {
  name: 'created_at',
  sql: `to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
};

/** The full mainnet record, in SPEC.md order. */
export const MAINNET_FIELDS: readonly RecordField[] = [
  ...[
    'id',
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
  ].map(column),
  CREATED_AT,
];

/** The testnet subset record (SPEC.md: the `/transactions` field list), in its order. */
export const TESTNET_FIELDS: readonly RecordField[] = [
  ...[
    'id',
    'source_tx_hash',
    'source_domain',
    'destination_domain',
    'sender',
    'recipient',
    'deposit_amount',
    'receive_amount',
    'max_fee',
    'relayer_fee',
    'gas_drop_amount',
    'is_gas_drop_in_native',
    'confirmed',
  ].map(column),
  CREATED_AT,
];

/**
 * The SQL of a record's JSON text for the row alias `t`: a lateral select naming each field,
 * passed to `row_to_json` (its keys are the select's column names, in order).
 */
export function recordJsonSql(fields: readonly RecordField[]): {
  lateral: string;
  json: string;
} {
  const list = fields.map((f) => `${f.sql} as ${f.name}`).join(', ');
  return { lateral: `cross join lateral (select ${list}) r`, json: 'row_to_json(r)::text' };
}
