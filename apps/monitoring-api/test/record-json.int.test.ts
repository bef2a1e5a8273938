/**
 * The feed's record text (transactions/record.ts), built by concatenation inside PostgreSQL,
 * checked against PostgreSQL's own `row_to_json` over the same fields (an independent JSON
 * writer), byte for byte: key order, numbers, booleans, nulls, string escaping and created_at.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { MAINNET_FIELDS, TESTNET_FIELDS, type RecordField } from '../src/transactions/record.js';
import { aTransaction, insertAll } from './support/builders.js';
import { useTestApp } from './support/app.js';

/** Text that needs JSON escaping: quote, backslash, control characters, non-ASCII, U+2028. */
const AWKWARD = 'a"b\\c\nd\te\u0001f/é\u2028𝄞';

/** A timestamptz column as ISO 8601 UTC text with milliseconds (docs/api.md "Transaction record"). */
const iso = (column: string) =>
  `to_char(t.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;

/**
 * `row_to_json` over the same field names and values: each column as is, timestamps as text,
 * `nonce` from `cctp_nonce`, `fee_executed` 0 for v1 (docs/indexer.md "Record fields").
 */
function rowToJsonSql(fields: readonly RecordField[]): string {
  const special: Record<string, string> = {
    created_at: `to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') as created_at`,
    attested_at: iso('attested_at'),
    received_at: iso('received_at'),
    updated_at: iso('updated_at'),
    nonce: 't.cctp_nonce as nonce',
    fee_executed: 'case when t.version = 1 then 0 else t.fee_executed end as fee_executed',
  };
  const list = fields.map((f) => special[f.name] ?? `t.${f.name} as ${f.name}`).join(', ');
  return `select t.id, row_to_json(r)::text as json from transactions t
    cross join lateral (select ${list}) r where t.network = ? order by t.created_at desc, t.id desc`;
}

describe('feed record JSON', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await insertAll(t.db.database, [
      aTransaction({
        created_at: new Date('2026-11-21T10:00:00Z'),
        source_tx_hash: AWKWARD,
        destination_tx_hash: null,
        gas_drop_tx_hash: `x${AWKWARD}`,
        sender: `"${AWKWARD}"`,
        recipient: '\\',
        deposit_amount: 2n ** 63n - 1n,
        receive_amount: 0n,
        gas_drop_amount: 10n ** 77n,
        is_gas_drop_in_native: true,
        source_domain: 4_294_967_295,
        version: 1,
        confirmed: false,
        destination_tx_status: 'failed',
      }),
      aTransaction({ created_at: new Date('2026-11-21T09:59:59Z') }),
      aTransaction({ created_at: new Date('2026-11-21T09:59:58Z'), version: 2 }),
      aTransaction({
        network: 'testnet',
        created_at: new Date('2026-11-21T11:00:00Z'),
        sender: AWKWARD,
      }),
    ]);
    // A received fast v2 transfer with every explorer field set (as the indexer writes them).
    await t.db.knex.raw(
      `update transactions set attested_at = '2026-11-21T09:59:58.123Z', received_at = '2026-11-21T10:00:05Z',
              message_hash = '0x${'ab'.repeat(32)}', cctp_nonce = '0x${'cd'.repeat(32)}',
              fee_executed = 3000, min_finality_threshold = 1000
        where created_at = '2026-11-21T09:59:59Z'`,
    );
  });

  it.each([
    ['mainnet', '/transactionsmainnet', MAINNET_FIELDS],
    ['testnet', '/transactions', TESTNET_FIELDS],
  ] as const)(
    'the %s records are byte for byte what row_to_json writes',
    async (network, path, fields) => {
      const res = await request(t.app).get(path).expect(200);
      const expected = await t.db.knex.raw<{ rows: Array<{ json: string }> }>(
        rowToJsonSql(fields),
        [network],
      );
      expect(expected.rows.length).toBeGreaterThan(0);
      expect(res.text).toBe(
        `{"transactions":[${expected.rows.map((r) => r.json).join(',')}],"next_cursor":"","has_more":false}`,
      );
      for (const record of (res.body as { transactions: Record<string, unknown>[] }).transactions) {
        expect(Object.keys(record)).toEqual(fields.map((f) => f.name));
      }
    },
  );

  it('awkward text survives a JSON round trip exactly, amounts stay exact', async () => {
    const res = await request(t.app).get('/transactionsmainnet').expect(200);
    const [first] = (res.body as { transactions: Record<string, unknown>[] }).transactions;
    expect(first).toMatchObject({
      source_tx_hash: AWKWARD,
      destination_tx_hash: null,
      gas_drop_tx_hash: `x${AWKWARD}`,
      sender: `"${AWKWARD}"`,
      recipient: '\\',
      is_gas_drop_in_native: true,
      confirmed: false,
      version: 1,
      source_domain: 4_294_967_295,
      destination_tx_status: 'failed',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    expect(res.text).toContain(`"deposit_amount":${(2n ** 63n - 1n).toString()},`);
    expect(res.text).toContain(`"gas_drop_amount":${(10n ** 77n).toString()},`);
  });
});
