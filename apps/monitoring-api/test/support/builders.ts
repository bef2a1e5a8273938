/** Small builders of transfer records for tests (defaults overridable field by field). */
import type { Queryable } from '../../src/db/statements.js';
import type { SeedTransaction } from '../../src/seed/transactions.js';
import { insertTransactions } from '../../src/seed/writer.js';

let counter = 0;

/** A unique lower-case 0x hex string of `digits` digits. */
export function hexId(digits: number): string {
  counter += 1;
  return `0x${counter.toString(16).padStart(digits, '0')}`;
}

/** A mainnet EVM transfer created at `created_at` (default 2026-11-21T12:00:00Z). */
export function aTransaction(overrides: Partial<SeedTransaction> = {}): SeedTransaction {
  return {
    network: 'mainnet',
    source_tx_hash: hexId(64),
    destination_tx_hash: hexId(64),
    gas_drop_tx_hash: null,
    source_domain: 0,
    destination_domain: 3,
    sender: hexId(40),
    recipient: hexId(40),
    deposit_amount: 10_000_000n,
    receive_amount: 9_800_000n,
    relayer_fee: 200_000n,
    gas_drop_amount: 0n,
    is_gas_drop_in_native: false,
    max_fee: 1_000n,
    version: 2,
    confirmed: true,
    has_source_tx_error: false,
    has_attestation_error: false,
    has_destination_tx_error: false,
    destination_tx_status: 'success',
    created_at: new Date('2026-11-21T12:00:00Z'),
    ...overrides,
  };
}

/** Inserts records; returns their ids in insertion order. */
export async function insertAll(
  db: Queryable,
  records: readonly SeedTransaction[],
): Promise<number[]> {
  const before = await db.first<{ max: string | null }>('select max(id) as max from transactions');
  await insertTransactions(db, records);
  const rows = await db.rows<{ id: string }>(
    'select id from transactions where id > $1 order by id',
    [Number(before?.max ?? 0)],
  );
  return rows.map((row) => Number(row.id));
}
