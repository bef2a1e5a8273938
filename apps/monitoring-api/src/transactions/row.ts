/**
 * The columns of a `transactions` row that every writer sets, the indexer (docs/indexer.md
 * "Record fields") and the demo seed alike. Amounts in base units of the burn token.
 */
import type { TransferNetwork } from '@ctss/domain-types';

/** A transfer as written to `transactions`: the columns both the indexer and the seed write. */
export interface TransferColumns {
  network: TransferNetwork;
  source_domain: number;
  source_tx_hash: string;
  destination_domain: number;
  sender: string;
  recipient: string;
  /** Base units. */
  deposit_amount: bigint;
  /** Base units. */
  receive_amount: bigint;
  /** Base units. */
  relayer_fee: bigint;
  /** Base units (of the native token when `is_gas_drop_in_native`). */
  gas_drop_amount: bigint;
  is_gas_drop_in_native: boolean;
  /** Base units. */
  max_fee: bigint;
  confirmed: boolean;
  created_at: Date;
}
