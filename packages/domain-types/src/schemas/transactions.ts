/** Transaction records and pages. Source: docs/api.md "Transaction record"
 * and "Pagination". */
import { z } from '../zod.js';
import { BaseUnits, DomainId, IsoTimestamp } from './primitives.js';

/** Settlement state of the destination transaction. */
export const DestinationTxStatus = z.enum(['pending', 'success', 'failed']);
export type DestinationTxStatus = z.infer<typeof DestinationTxStatus>;

/** A mainnet transaction record, the full schema of `/transactionsmainnet`. Amounts in base units. */
export const TransactionRecord = z
  .object({
    id: z.number().int().nonnegative(),
    source_tx_hash: z.string(),
    destination_tx_hash: z.string().nullable(),
    gas_drop_tx_hash: z.string().nullable(),
    source_domain: DomainId,
    destination_domain: DomainId,
    sender: z.string(),
    recipient: z.string(),
    deposit_amount: BaseUnits,
    receive_amount: BaseUnits,
    relayer_fee: BaseUnits,
    /** Native smallest units when is_gas_drop_in_native, else bridge asset base units. */
    gas_drop_amount: BaseUnits,
    is_gas_drop_in_native: z.boolean(),
    max_fee: BaseUnits,
    version: z.number().int(),
    confirmed: z.boolean(),
    has_source_tx_error: z.boolean(),
    has_attestation_error: z.boolean(),
    has_destination_tx_error: z.boolean(),
    destination_tx_status: DestinationTxStatus,
    created_at: IsoTimestamp,
    /** When the attestation was first seen (at the latest the receive's block time); null until then. */
    attested_at: IsoTimestamp.nullable(),
    /** The destination block's time of the receive; null until received. */
    received_at: IsoTimestamp.nullable(),
    /** The last change of any field of this record. */
    updated_at: IsoTimestamp,
    /** keccak-256 of the CCTP message, 0x hex (v1 from the origin; v2 once attested); null until known. */
    message_hash: z.string().nullable(),
    /** CCTP nonce: v1 uint64 in decimal, v2 bytes32 0x hex (once attested); null until known. */
    nonce: z.string().nullable(),
    /** v2: Circle's fee executed, base units (null until received); v1: 0. */
    fee_executed: BaseUnits.nullable().openapi({ type: ['integer', 'null'], format: 'int64' }),
    /** v2: the burn's minimum finality threshold (1000 fast, 2000 standard); v1: null. */
    min_finality_threshold: z.number().int().nonnegative().nullable(),
  })
  .openapi('TransactionRecord');
export type TransactionRecord = z.infer<typeof TransactionRecord>;

/** The testnet/staging subset record served by `/transactions`. */
export const TestnetTransactionRecord = TransactionRecord.pick({
  id: true,
  source_tx_hash: true,
  source_domain: true,
  destination_domain: true,
  sender: true,
  recipient: true,
  deposit_amount: true,
  receive_amount: true,
  max_fee: true,
  relayer_fee: true,
  gas_drop_amount: true,
  is_gas_drop_in_native: true,
  confirmed: true,
  created_at: true,
}).openapi('TestnetTransactionRecord');
export type TestnetTransactionRecord = z.infer<typeof TestnetTransactionRecord>;

/**
 * Keyset cursor `<unix_ts>_<id>`: created_at in whole UNIX seconds and the record id of the last
 * row of the previous page. Empty on the last page.
 */
export const TransactionCursor = z.string().regex(/^(0|[1-9][0-9]{0,11})_(0|[1-9][0-9]{0,18})$/);

/**
 * A keyset page of `record`s: the records, the cursor of the next page and whether there is one.
 * `next_cursor` is `""` when `has_more` is false.
 */
function cursorPage<R extends z.ZodType>(record: R) {
  return z.object({
    transactions: z.array(record),
    next_cursor: z.string(),
    has_more: z.boolean(),
  });
}

/** A page of mainnet records. */
export const TransactionPage = cursorPage(TransactionRecord).openapi('TransactionPage');
export type TransactionPage = z.infer<typeof TransactionPage>;

/** A page of testnet subset records. */
export const TestnetTransactionPage =
  cursorPage(TestnetTransactionRecord).openapi('TestnetTransactionPage');
export type TestnetTransactionPage = z.infer<typeof TestnetTransactionPage>;
