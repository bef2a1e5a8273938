/**
 * Layouts of the transfer program (cashmere-prod/contracts-prod `solana/programs/cashmere_cctp`:
 * `lib.rs` for the `transfer` / `transfer_v2` arguments, `events.rs` for `TransferEvent`; IDL
 * `cashmere_cctp` in cashmere-prod/cashmere-agent-sdk `src/chains/cashmere_cctp_idl.json`), as
 * `@solana/kit` codecs of the Borsh bytes after the 8-byte Anchor discriminator.
 * `TransferEvent` is emitted with `emit!` (a `Program data: <base64>` log line).
 */
import {
  getBooleanCodec,
  getI64Codec,
  getStructCodec,
  getU32Codec,
  getU64Codec,
} from '@solana/kit';
import { base58Address, bytes32 } from './borsh.js';

/**
 * Codec of `TransferEvent` of the transfer program, after its discriminator (165 bytes; fields in
 * the program's order, decoded as {@link TransferEvent}).
 */
export const transferEventCodec = getStructCodec([
  ['destination_domain', getU32Codec()],
  ['nonce', getU64Codec()],
  ['recipient', bytes32],
  ['solana_owner', bytes32],
  ['user', base58Address],
  ['amount', getU64Codec()],
  ['gas_drop_amount', getU64Codec()],
  ['fee_is_native', getBooleanCodec()],
  ['cctp_nonce', getI64Codec()],
  ['cctp_message', base58Address],
]);

/**
 * `TransferEvent` as decoded: `destination_domain`; `nonce`, the program's own transfer counter;
 * `recipient`, the mint recipient on the destination (bytes32); `solana_owner`, the wallet owning
 * `recipient` when the destination is Solana, else zero; `user`, the signer who paid (base58);
 * `amount`, USDC burned, base units; `gas_drop_amount`, lamports when `fee_is_native`, else USDC
 * base units; `cctp_nonce`, -1 for a CCTP v1 transfer, -2 for v2 (a placeholder: the nonce is in
 * the message); `cctp_message`, the `MessageSent` account holding the CCTP message (base58).
 */
export type TransferEvent = ReturnType<typeof transferEventCodec.decode>;

/** The fields `transfer` and `transfer_v2` share, in the order of `lib.rs`. */
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

/** Codec of the `transfer` (v1) arguments, decoded as {@link TransferV1Args}. */
export const transferArgsCodec = getStructCodec(transferArgFields);

/**
 * The `transfer` (v1) arguments as decoded: `usdc_amount`, USDC taken from the user for the
 * transfer (fee included, USDC gas drop excluded); `destination_domain`; `recipient` and
 * `solana_owner` (bytes32, as in {@link TransferEvent}); `fee`, the quoted fixed fee: lamports
 * when `fee_is_native`, else USDC base units; `deadline`, the quote's deadline, UNIX seconds;
 * `gas_drop_amount`; `fee_is_native`.
 */
export type TransferV1Args = ReturnType<typeof transferArgsCodec.decode>;

/** Codec of the `transfer_v2` arguments, decoded as {@link TransferV2Args}. */
export const transferV2ArgsCodec = getStructCodec([
  ...transferArgFields,
  ['max_fee', getU64Codec()],
  ['min_finality_threshold', getU32Codec()],
]);

/**
 * The `transfer_v2` arguments as decoded: those of {@link TransferV1Args}, then `max_fee`,
 * Circle's maximum fee, base units, and `min_finality_threshold` (1000 fast, 2000 standard).
 */
export type TransferV2Args = ReturnType<typeof transferV2ArgsCodec.decode>;
