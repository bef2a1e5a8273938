/**
 * Layouts of Circle's Solana CCTP programs (circlefin/solana-cctp-contracts, MessageTransmitter
 * and TokenMessengerMinter v1 in `programs/`, v2 in `programs/v2/`), as `@solana/kit` codecs of
 * the Borsh bytes after the 8-byte Anchor discriminator, and the used-nonce accounts a receive
 * creates:
 *
 * - `events.rs`: the `MessageSent` account (`send_message` writes the CCTP message into it) and
 *   the `MessageReceived` event;
 * - `token_minter/events.rs`: the `MintAndWithdraw` event;
 * - `instructions/receive_message.rs`: the `receive_message` parameters and the used-nonce
 *   account's seeds;
 * - `state.rs`: v1's `UsedNonces` (a bitmap of 6,400 nonces) and v2's `UsedNonce` accounts.
 *
 * `MessageReceived` and `MintAndWithdraw` are emitted with `emit_cpi!` (anchor.ts).
 */
import {
  address,
  getArrayCodec,
  getBooleanCodec,
  getI64Codec,
  getProgramDerivedAddress,
  getStructCodec,
  getU32Codec,
  getU64Codec,
} from '@solana/kit';
import { base58Address, bytes32, vecU8 } from './borsh.js';

/**
 * Codec of MessageTransmitter v1's `MessageSent` account, decoded as {@link MessageSentV1Account}
 * (only v1 messages are read; v2's nonce comes from Iris).
 */
export const messageSentV1Codec = getStructCodec([
  ['rent_payer', base58Address],
  ['message', vecU8],
]);

/**
 * MessageTransmitter v1's `MessageSent` account as decoded: `rent_payer`, the account that paid
 * the rent (base58); `message`, the CCTP message (the EVM layout, docs/indexer.md "Events").
 */
export type MessageSentV1Account = ReturnType<typeof messageSentV1Codec.decode>;

/** Codec of MessageTransmitter v2's `MessageSent` account, decoded as {@link MessageSentV2Account}. */
export const messageSentV2Codec = getStructCodec([
  ['rent_payer', base58Address],
  ['created_at', getI64Codec()],
  ['message', vecU8],
]);

/**
 * MessageTransmitter v2's `MessageSent` account as decoded: v1's fields with `created_at`, UNIX
 * seconds when the message was sent, after `rent_payer`.
 */
export type MessageSentV2Account = ReturnType<typeof messageSentV2Codec.decode>;

/** Codec of `ReceiveMessageParams` of `receive_message` (v1 and v2). */
export const receiveMessageParamsCodec = getStructCodec([
  ['message', vecU8],
  ['attestation', vecU8],
]);

/**
 * `ReceiveMessageParams` as decoded: `message`, the CCTP message; `attestation`, the attesters'
 * 65-byte signatures, concatenated.
 */
export type ReceiveMessageParams = ReturnType<typeof receiveMessageParamsCodec.decode>;

/** Codec of MessageTransmitter v1's `MessageReceived`, decoded as {@link MessageReceivedV1Event}. */
export const messageReceivedV1Codec = getStructCodec([
  ['caller', base58Address],
  ['source_domain', getU32Codec()],
  ['nonce', getU64Codec()],
  ['sender', base58Address],
  ['message_body', vecU8],
]);

/**
 * MessageTransmitter v1's `MessageReceived` as decoded: `caller` and `sender` (base58),
 * `source_domain`, `nonce` (u64) and `message_body`.
 */
export type MessageReceivedV1Event = ReturnType<typeof messageReceivedV1Codec.decode>;

/** Codec of MessageTransmitter v2's `MessageReceived`, decoded as {@link MessageReceivedV2Event}. */
export const messageReceivedV2Codec = getStructCodec([
  ['caller', base58Address],
  ['source_domain', getU32Codec()],
  ['nonce', bytes32],
  ['sender', base58Address],
  ['finality_threshold_executed', getU32Codec()],
  ['message_body', vecU8],
]);

/**
 * MessageTransmitter v2's `MessageReceived` as decoded: v1's fields with `nonce` as bytes32 and
 * `finality_threshold_executed`, the finality the message was attested at (1000 fast, 2000
 * standard), before `message_body`.
 */
export type MessageReceivedV2Event = ReturnType<typeof messageReceivedV2Codec.decode>;

/** Codec of TokenMessengerMinter v1's `MintAndWithdraw`, decoded as {@link MintAndWithdrawV1Event}. */
export const mintAndWithdrawV1Codec = getStructCodec([
  ['mint_recipient', base58Address],
  ['amount', getU64Codec()],
  ['mint_token', base58Address],
]);

/**
 * TokenMessengerMinter v1's `MintAndWithdraw` as decoded: `mint_recipient` and `mint_token`
 * (base58), `amount`, minted to the recipient, base units.
 */
export type MintAndWithdrawV1Event = ReturnType<typeof mintAndWithdrawV1Codec.decode>;

/** Codec of TokenMessengerMinter v2's `MintAndWithdraw`, decoded as {@link MintAndWithdrawV2Event}. */
export const mintAndWithdrawV2Codec = getStructCodec([
  ['mint_recipient', base58Address],
  ['amount', getU64Codec()],
  ['mint_token', base58Address],
  ['fee_collected', getU64Codec()],
]);

/**
 * TokenMessengerMinter v2's `MintAndWithdraw` as decoded: v1's fields with `fee_collected`,
 * minted to the fee recipient, base units.
 */
export type MintAndWithdrawV2Event = ReturnType<typeof mintAndWithdrawV2Codec.decode>;

/** Nonces one v1 `UsedNonces` account records (`UsedNonces::MAX_NONCES`). */
export const USED_NONCES_PER_ACCOUNT = 6400n;

/** Codec of MessageTransmitter v1's `UsedNonces` account (812 bytes), decoded as {@link UsedNoncesAccount}. */
export const usedNoncesV1Codec = getStructCodec([
  ['remote_domain', getU32Codec()],
  ['first_nonce', getU64Codec()],
  ['used_nonces', getArrayCodec(getU64Codec(), { size: 100 })],
]);

/**
 * MessageTransmitter v1's `UsedNonces` account as decoded: bit i of `used_nonces` (100
 * little-endian u64 words, bit `i % 64` of word `i / 64`) is nonce `first_nonce` + i of
 * `remote_domain`.
 */
export type UsedNoncesAccount = ReturnType<typeof usedNoncesV1Codec.decode>;

/** Codec of MessageTransmitter v2's `UsedNonce` account (1 byte), one per message. */
export const usedNonceV2Codec = getStructCodec([['is_used', getBooleanCodec()]]);

/** MessageTransmitter v2's `UsedNonce` account as decoded: `is_used`. */
export type UsedNonceAccount = ReturnType<typeof usedNonceV2Codec.decode>;

/**
 * The first nonce of the v1 `UsedNonces` account recording `nonce` (`UsedNonces::first_nonce`):
 * ((nonce - 1) / 6400) * 6400 + 1, division truncated (nonce 0, which the program refuses,
 * gives 1).
 */
export function firstNonceOf(nonce: bigint): bigint {
  return ((nonce - 1n) / USED_NONCES_PER_ACCOUNT) * USED_NONCES_PER_ACCOUNT + 1n;
}

/** Which message a used-nonce account records. */
export type UsedNonceKey =
  | { readonly version: 1; readonly sourceDomain: number; readonly nonce: bigint }
  | { readonly version: 2; readonly nonce: Uint8Array };

/**
 * The used-nonce account `receive_message` creates for a message (base58), a PDA of the
 * MessageTransmitter `program` of the message's version: v2 `["used_nonce", nonce (32 bytes)]`,
 * one per message; v1 `["used_nonces", source domain (decimal), "-" for domains >= 11 else
 * nothing, first nonce (decimal)]`, one per 6,400 nonces of a source domain
 * (`UsedNonces::used_nonces_seed_delimiter`).
 *
 * @throws {RangeError} for a v2 nonce not 32 bytes long.
 */
export async function usedNonceAddress(program: string, key: UsedNonceKey): Promise<string> {
  if (key.version === 2) {
    if (key.nonce.length !== 32) throw new RangeError('a v2 nonce is 32 bytes');
    const [pda] = await getProgramDerivedAddress({
      programAddress: address(program),
      seeds: ['used_nonce', key.nonce],
    });
    return pda;
  }
  const [pda] = await getProgramDerivedAddress({
    programAddress: address(program),
    seeds: [
      'used_nonces',
      String(key.sourceDomain),
      key.sourceDomain < 11 ? '' : '-',
      firstNonceOf(key.nonce).toString(),
    ],
  });
  return pda;
}
