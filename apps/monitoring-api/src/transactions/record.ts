/** Database rows to the response records of SPEC.md "Transaction record" (amounts as exact bigint). */
import type { TestnetTransactionRecord, TransactionRecord } from '@ctss/domain-types';
import type { TransactionRow } from './repository.js';

/** The full mainnet record of a row. */
export function toTransactionRecord(row: TransactionRow): TransactionRecord {
  return {
    id: Number(row.id),
    source_tx_hash: row.source_tx_hash,
    destination_tx_hash: row.destination_tx_hash,
    gas_drop_tx_hash: row.gas_drop_tx_hash,
    source_domain: Number(row.source_domain),
    destination_domain: Number(row.destination_domain),
    sender: row.sender,
    recipient: row.recipient,
    deposit_amount: BigInt(row.deposit_amount),
    receive_amount: BigInt(row.receive_amount),
    relayer_fee: BigInt(row.relayer_fee),
    gas_drop_amount: BigInt(row.gas_drop_amount),
    is_gas_drop_in_native: row.is_gas_drop_in_native,
    max_fee: BigInt(row.max_fee),
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
export function toTestnetTransactionRecord(row: TransactionRow): TestnetTransactionRecord {
  return {
    id: Number(row.id),
    source_tx_hash: row.source_tx_hash,
    source_domain: Number(row.source_domain),
    destination_domain: Number(row.destination_domain),
    sender: row.sender,
    recipient: row.recipient,
    deposit_amount: BigInt(row.deposit_amount),
    receive_amount: BigInt(row.receive_amount),
    max_fee: BigInt(row.max_fee),
    relayer_fee: BigInt(row.relayer_fee),
    gas_drop_amount: BigInt(row.gas_drop_amount),
    is_gas_drop_in_native: row.is_gas_drop_in_native,
    confirmed: row.confirmed,
    created_at: row.created_at.toISOString(),
  };
}
