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
  getAddressCodec,
  getArrayCodec,
  getBooleanCodec,
  getI64Codec,
  getProgramDerivedAddress,
  getStructCodec,
  getU32Codec,
  getU64Codec,
  type Codec,
} from '@solana/kit';
import { bytes32, vecU8 } from './borsh.js';

/**
 * Circle's `MessageSent` account (v2 adds `created_at i64` after `rent_payer`; only v1 messages
 * are read, v2's nonce comes from Iris).
 */
export interface MessageSentAccount {
  /** The account that paid the rent (base58). */
  readonly rent_payer: string;
  /** v2: UNIX seconds when the message was sent. */
  readonly created_at?: bigint;
  /** The CCTP message (the EVM layout, docs/indexer.md "Events"). */
  readonly message: Uint8Array;
}

/** Codec of MessageTransmitter v1's `MessageSent` account. */
export const messageSentV1Codec = getStructCodec([
  ['rent_payer', getAddressCodec()],
  ['message', vecU8],
]) as unknown as Codec<MessageSentAccount>;

/** Codec of MessageTransmitter v2's `MessageSent` account (`created_at` required). */
export const messageSentV2Codec = getStructCodec([
  ['rent_payer', getAddressCodec()],
  ['created_at', getI64Codec()],
  ['message', vecU8],
]) as unknown as Codec<MessageSentAccount>;

/** `ReceiveMessageParams` of `receive_message` (v1 and v2). */
export interface ReceiveMessageParams {
  /** The CCTP message. */
  readonly message: Uint8Array;
  /** The attesters' 65-byte signatures, concatenated. */
  readonly attestation: Uint8Array;
}

/** Codec of {@link ReceiveMessageParams}. */
export const receiveMessageParamsCodec = getStructCodec([
  ['message', vecU8],
  ['attestation', vecU8],
]) as unknown as Codec<ReceiveMessageParams>;

/** `MessageReceived` of MessageTransmitter v1 (`nonce` u64) or v2 (`nonce` bytes32). */
export interface MessageReceivedEvent {
  readonly caller: string;
  readonly source_domain: number;
  readonly nonce: bigint | Uint8Array;
  readonly sender: string;
  /** v2: the finality the message was attested at (1000 fast, 2000 standard). */
  readonly finality_threshold_executed?: number;
  readonly message_body: Uint8Array;
}

/** Codec of MessageTransmitter v1's `MessageReceived`. */
export const messageReceivedV1Codec = getStructCodec([
  ['caller', getAddressCodec()],
  ['source_domain', getU32Codec()],
  ['nonce', getU64Codec()],
  ['sender', getAddressCodec()],
  ['message_body', vecU8],
]) as unknown as Codec<MessageReceivedEvent>;

/** Codec of MessageTransmitter v2's `MessageReceived`. */
export const messageReceivedV2Codec = getStructCodec([
  ['caller', getAddressCodec()],
  ['source_domain', getU32Codec()],
  ['nonce', bytes32],
  ['sender', getAddressCodec()],
  ['finality_threshold_executed', getU32Codec()],
  ['message_body', vecU8],
]) as unknown as Codec<MessageReceivedEvent>;

/** `MintAndWithdraw` of TokenMessengerMinter v1 (no fee) or v2 (`fee_collected`). */
export interface MintAndWithdrawEvent {
  readonly mint_recipient: string;
  /** Minted to the recipient, base units. */
  readonly amount: bigint;
  readonly mint_token: string;
  /** v2: minted to the fee recipient, base units. */
  readonly fee_collected?: bigint;
}

/** Codec of TokenMessengerMinter v1's `MintAndWithdraw`. */
export const mintAndWithdrawV1Codec = getStructCodec([
  ['mint_recipient', getAddressCodec()],
  ['amount', getU64Codec()],
  ['mint_token', getAddressCodec()],
]) as unknown as Codec<MintAndWithdrawEvent>;

/** Codec of TokenMessengerMinter v2's `MintAndWithdraw`. */
export const mintAndWithdrawV2Codec = getStructCodec([
  ['mint_recipient', getAddressCodec()],
  ['amount', getU64Codec()],
  ['mint_token', getAddressCodec()],
  ['fee_collected', getU64Codec()],
]) as unknown as Codec<MintAndWithdrawEvent>;

/** Nonces one v1 `UsedNonces` account records (`UsedNonces::MAX_NONCES`). */
export const USED_NONCES_PER_ACCOUNT = 6400n;

/** MessageTransmitter v1's `UsedNonces` account: bit i of `used_nonces` is nonce first_nonce + i. */
export interface UsedNoncesAccount {
  readonly remote_domain: number;
  readonly first_nonce: bigint;
  /** 100 little-endian u64 words, bit `i % 64` of word `i / 64` for nonce first_nonce + i. */
  readonly used_nonces: readonly bigint[];
}

/** Codec of {@link UsedNoncesAccount} (812 bytes). */
export const usedNoncesV1Codec = getStructCodec([
  ['remote_domain', getU32Codec()],
  ['first_nonce', getU64Codec()],
  ['used_nonces', getArrayCodec(getU64Codec(), { size: 100 })],
]) as unknown as Codec<UsedNoncesAccount>;

/** MessageTransmitter v2's `UsedNonce` account, one per message. */
export interface UsedNonceAccount {
  readonly is_used: boolean;
}

/** Codec of {@link UsedNonceAccount} (1 byte). */
export const usedNonceV2Codec = getStructCodec([
  ['is_used', getBooleanCodec()],
]) as unknown as Codec<UsedNonceAccount>;

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
