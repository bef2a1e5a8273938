/**
 * Layouts of the transfer program (cashmere-prod/contracts-prod `solana/programs/cashmere_cctp`:
 * `lib.rs` for the `transfer` / `transfer_v2` arguments, `events.rs` for `TransferEvent`; IDL
 * `cashmere_cctp` in cashmere-prod/cashmere-agent-sdk `src/chains/cashmere_cctp_idl.json`), as
 * `@solana/kit` codecs of the Borsh bytes after the 8-byte Anchor discriminator.
 * `TransferEvent` is emitted with `emit!` (a `Program data: <base64>` log line).
 */
import {
  getAddressCodec,
  getBooleanCodec,
  getI64Codec,
  getStructCodec,
  getU32Codec,
  getU64Codec,
  type Codec,
} from '@solana/kit';
import { bytes32 } from './borsh.js';

/** `TransferEvent` of the transfer program, after its discriminator (165 bytes). */
export interface TransferEvent {
  readonly destination_domain: number;
  /** The program's own transfer counter. */
  readonly nonce: bigint;
  /** Mint recipient on the destination (bytes32). */
  readonly recipient: Uint8Array;
  /** The wallet owning `recipient` when the destination is Solana, else zero. */
  readonly solana_owner: Uint8Array;
  /** The signer who paid (base58). */
  readonly user: string;
  /** USDC burned, base units. */
  readonly amount: bigint;
  /** Lamports when `fee_is_native`, else USDC base units. */
  readonly gas_drop_amount: bigint;
  readonly fee_is_native: boolean;
  /** -1 for a CCTP v1 transfer, -2 for v2 (a placeholder: the nonce is in the message). */
  readonly cctp_nonce: bigint;
  /** The `MessageSent` account holding the CCTP message (base58). */
  readonly cctp_message: string;
}

/** Codec of {@link TransferEvent} (fields in the program's order). */
export const transferEventCodec = getStructCodec([
  ['destination_domain', getU32Codec()],
  ['nonce', getU64Codec()],
  ['recipient', bytes32],
  ['solana_owner', bytes32],
  ['user', getAddressCodec()],
  ['amount', getU64Codec()],
  ['gas_drop_amount', getU64Codec()],
  ['fee_is_native', getBooleanCodec()],
  ['cctp_nonce', getI64Codec()],
  ['cctp_message', getAddressCodec()],
]) as unknown as Codec<TransferEvent>;

/** Arguments of `transfer` (v1) and, with `max_fee` and `min_finality_threshold`, `transfer_v2`. */
export interface TransferArgs {
  /** USDC taken from the user for the transfer (fee included, USDC gas drop excluded). */
  readonly usdc_amount: bigint;
  readonly destination_domain: number;
  readonly recipient: Uint8Array;
  readonly solana_owner: Uint8Array;
  /** The quoted fixed fee: lamports when `fee_is_native`, else USDC base units. */
  readonly fee: bigint;
  /** Quote deadline, UNIX seconds. */
  readonly deadline: bigint;
  readonly gas_drop_amount: bigint;
  readonly fee_is_native: boolean;
  /** v2: Circle's maximum fee, base units. */
  readonly max_fee?: bigint;
  /** v2: 1000 fast, 2000 standard. */
  readonly min_finality_threshold?: number;
}

const transferArgFields = [
  ['usdc_amount', getU64Codec()],
  ['destination_domain', getU32Codec()],
  ['recipient', bytes32],
  ['solana_owner', bytes32],
  ['fee', getU64Codec()],
  ['deadline', getU64Codec()],
  ['gas_drop_amount', getU64Codec()],
  ['fee_is_native', getBooleanCodec()],
] as const;

/** Codec of the `transfer` arguments. */
export const transferArgsCodec = getStructCodec([
  ...transferArgFields,
]) as unknown as Codec<TransferArgs>;

/** Codec of the `transfer_v2` arguments. */
export const transferV2ArgsCodec = getStructCodec([
  ...transferArgFields,
  ['max_fee', getU64Codec()],
  ['min_finality_threshold', getU32Codec()],
]) as unknown as Codec<TransferArgs>;
