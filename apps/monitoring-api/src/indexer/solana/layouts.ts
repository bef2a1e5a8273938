/**
 * Binary layouts of the Solana programs the indexer reads (docs/indexer.md "Solana"), as
 * `@solana/kit` codecs (Borsh: little-endian integers, `u32`-length-prefixed vectors, 32-byte
 * public keys), each after its 8-byte Anchor discriminator:
 *
 * - the transfer program (cashmere-prod/contracts-prod `solana/programs/cashmere_cctp`, IDL
 *   `cashmere_cctp` in cashmere-prod/cashmere-agent-sdk `src/chains/cashmere_cctp_idl.json`):
 *   the `transfer` and `transfer_v2` instruction arguments and `TransferEvent`, emitted with
 *   `emit!` (a `Program data: <base64>` log line);
 * - Circle's programs (circlefin/solana-cctp-contracts): the `MessageSent` account of
 *   MessageTransmitter v1 (`rent_payer`, `message`) and v2 (`rent_payer`, `created_at`,
 *   `message`), `MessageReceived` of MessageTransmitter v1/v2 and `MintAndWithdraw` of
 *   TokenMessengerMinter v1/v2, both emitted with `emit_cpi!` (a self-invocation whose data is
 *   Anchor's event tag, then the event discriminator and fields).
 *
 * Discriminators are Anchor's: the first 8 bytes of sha256(`global:<instruction>`),
 * sha256(`event:<Event>`) or sha256(`account:<Account>`); `solana/layouts.test.ts` pins them
 * against the published IDL.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import {
  addCodecSizePrefix,
  fixCodecSize,
  getAddressCodec,
  getBooleanCodec,
  getBytesCodec,
  getI64Codec,
  getStructCodec,
  getU32Codec,
  getU64Codec,
  type Codec,
} from '@solana/kit';

/** Anchor's 8-byte discriminator of `namespace:name` (sha256, first 8 bytes). */
function discriminator(namespace: 'global' | 'event' | 'account', name: string): Uint8Array {
  return sha256(utf8ToBytes(`${namespace}:${name}`)).slice(0, 8);
}

/**
 * Anchor's `EVENT_IX_TAG` (0x1d9acb512ea545e4, the big-endian reading of
 * sha256(`anchor:event`)[..8]) little-endian: the first 8 bytes of the data of an `emit_cpi!`
 * self-invocation (anchor-lang `event::EVENT_IX_TAG_LE`).
 */
export const EVENT_IX_TAG = Uint8Array.from([0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d]);

const bytes32 = fixCodecSize(getBytesCodec(), 32);
const vecU8 = addCodecSizePrefix(getBytesCodec(), getU32Codec());

/** `TransferEvent` of the transfer program, after its discriminator. */
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

/**
 * Circle's `MessageSent` account (v2 adds `created_at i64` after `rent_payer`; only v1 messages
 * are read, v2's nonce comes from Iris).
 */
export interface MessageSentAccount {
  readonly rent_payer: string;
  readonly created_at?: bigint;
  /** The CCTP message (the EVM layout, docs/indexer.md "Events"). */
  readonly message: Uint8Array;
}

/** Codec of MessageTransmitter v1's `MessageSent` account. */
export const messageSentV1Codec = getStructCodec([
  ['rent_payer', getAddressCodec()],
  ['message', vecU8],
]) as unknown as Codec<MessageSentAccount>;

/** `MessageReceived` of MessageTransmitter v1 (`nonce` u64) or v2 (`nonce` bytes32). */
export interface MessageReceivedEvent {
  readonly caller: string;
  readonly source_domain: number;
  readonly nonce: bigint | Uint8Array;
  readonly sender: string;
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

/** The discriminators the indexer matches. */
export const DISCRIMINATORS = {
  transfer: discriminator('global', 'transfer'),
  transferV2: discriminator('global', 'transfer_v2'),
  transferEvent: discriminator('event', 'TransferEvent'),
  messageSent: discriminator('account', 'MessageSent'),
  messageReceived: discriminator('event', 'MessageReceived'),
  mintAndWithdraw: discriminator('event', 'MintAndWithdraw'),
  receiveMessage: discriminator('global', 'receive_message'),
} as const;

/** True when `data` starts with `prefix`. */
export function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
