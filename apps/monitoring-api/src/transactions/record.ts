/**
 * Database rows to the response records of SPEC.md "Transaction record". Amounts are written as
 * exact JSON integers: a plain number when the value is a safe integer (the common case, so the
 * page serializes on JSON.stringify's fast path without the bigint replacer), a bigint otherwise
 * (written exactly by server-kit's stringifyJson). The wire text is the same either way.
 */
import type { TestnetTransactionRecord, TransactionRecord } from '@ctss/domain-types';
import { exactInteger } from '@ctss/server-kit';
import type { TransactionRow } from './repository.js';

/** A record as it is serialized: every bigint field may also be a safe-integer number. */
export type WireRecord<T> = { [K in keyof T]: T[K] extends bigint ? number | bigint : T[K] };

/**
 * A non-negative decimal string from pg (int8 / numeric) as an exact JSON integer: up to 15
 * digits is always below 2^53, so `Number` is exact and no BigInt is allocated.
 */
function amount(text: string): number | bigint {
  return text.length <= 15 ? Number(text) : exactInteger(BigInt(text));
}

/** The full mainnet record of a row. */
export function toTransactionRecord(row: TransactionRow): WireRecord<TransactionRecord> {
  return {
    id: Number(row.id),
    source_tx_hash: row.source_tx_hash,
    destination_tx_hash: row.destination_tx_hash,
    gas_drop_tx_hash: row.gas_drop_tx_hash,
    source_domain: Number(row.source_domain),
    destination_domain: Number(row.destination_domain),
    sender: row.sender,
    recipient: row.recipient,
    deposit_amount: amount(row.deposit_amount),
    receive_amount: amount(row.receive_amount),
    relayer_fee: amount(row.relayer_fee),
    gas_drop_amount: amount(row.gas_drop_amount),
    is_gas_drop_in_native: row.is_gas_drop_in_native,
    max_fee: amount(row.max_fee),
    version: row.version,
    confirmed: row.confirmed,
    has_source_tx_error: row.has_source_tx_error,
    has_attestation_error: row.has_attestation_error,
    has_destination_tx_error: row.has_destination_tx_error,
    destination_tx_status: row.destination_tx_status,
    created_at: row.created_at.toISOString(),
  };
}

/** The testnet subset record of a row (SPEC.md: the `/transactions` field list). */
export function toTestnetTransactionRecord(
  row: TransactionRow,
): WireRecord<TestnetTransactionRecord> {
  return {
    id: Number(row.id),
    source_tx_hash: row.source_tx_hash,
    source_domain: Number(row.source_domain),
    destination_domain: Number(row.destination_domain),
    sender: row.sender,
    recipient: row.recipient,
    deposit_amount: amount(row.deposit_amount),
    receive_amount: amount(row.receive_amount),
    max_fee: amount(row.max_fee),
    relayer_fee: amount(row.relayer_fee),
    gas_drop_amount: amount(row.gas_drop_amount),
    is_gas_drop_in_native: row.is_gas_drop_in_native,
    confirmed: row.confirmed,
    created_at: row.created_at.toISOString(),
  };
}
