/**
 * Ed25519 relayer-fee quotes for Solana, Aptos and Sui origins (docs/api.md "Ed25519 quote";
 * docs/decisions.md "D2. Ed25519 BCS message and the version byte"): the BCS message, its
 * signature and strict verification.
 */
import { bcs } from '@mysten/bcs';
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertDomain, assertUint } from './ecdsa-quote.js';
import { QuoteFieldError } from './errors.js';
import type { Ed25519Signer } from './keys.js';

/** The fields an Ed25519 quote signs, in BCS order. */
export interface Ed25519QuoteFields {
  /** Optional leading `u8` (1 or 2): present exactly when the request passed `version` (Solana does). */
  version?: 1 | 2;
  /** Origin CCTP domain (u32). */
  localDomain: number;
  /** Destination CCTP domain (u32). */
  destinationDomain: number;
  /** Relayer fee (u64): bridge asset base units (6 decimals), or origin native base units when `isNative`. */
  fee: bigint;
  /** UNIX timestamp in seconds (u64). */
  deadline: bigint;
  /** Fee and gas drop paid in the origin native token. */
  isNative: boolean;
}

const BODY = {
  localDomain: bcs.u32(),
  destinationDomain: bcs.u32(),
  fee: bcs.u64(),
  deadline: bcs.u64(),
  isNative: bcs.bool(),
};
const QuoteMessage = bcs.struct('QuoteMessage', BODY);
const VersionedQuoteMessage = bcs.struct('VersionedQuoteMessage', { version: bcs.u8(), ...BODY });

/** Byte length of the BCS message with the version prefix. */
export const QUOTE_MESSAGE_LENGTH_WITH_VERSION = 26;
/** Byte length of the BCS message without the version prefix. */
export const QUOTE_MESSAGE_LENGTH = 25;

/**
 * BCS-encodes a quote (little-endian): optional `u8 version` (only when `fields.version` is set),
 * `u32 localDomain`, `u32 destinationDomain`, `u64 fee`, `u64 deadline`, `bool isNative`.
 * 26 bytes with a version, 25 without. On-chain programs rebuild the same bytes.
 *
 * @throws {QuoteFieldError} when a domain is not u32, fee/deadline do not fit u64, or version is not 1/2.
 */
export function encodeQuoteMessage(fields: Ed25519QuoteFields): Uint8Array {
  assertDomain('localDomain', fields.localDomain);
  assertDomain('destinationDomain', fields.destinationDomain);
  assertUint('fee', fields.fee, 64);
  assertUint('deadline', fields.deadline, 64);
  if (typeof fields.isNative !== 'boolean')
    throw new QuoteFieldError('isNative', 'must be a boolean');
  const body = {
    localDomain: fields.localDomain,
    destinationDomain: fields.destinationDomain,
    fee: fields.fee,
    deadline: fields.deadline,
    isNative: fields.isNative,
  };
  if (fields.version === undefined) return QuoteMessage.serialize(body).toBytes();
  if (fields.version !== 1 && fields.version !== 2) {
    throw new QuoteFieldError(
      'version',
      `must be 1 or 2 when present, got ${String(fields.version)}`,
    );
  }
  return VersionedQuoteMessage.serialize({ version: fields.version, ...body }).toBytes();
}

/**
 * Decodes a BCS quote message produced by {@link encodeQuoteMessage}.
 *
 * @param options.hasVersion whether the message starts with the `u8 version` byte.
 * @throws {RangeError} when the length is not 26 (with version) / 25 (without), the version byte
 *   is not 1 or 2, or the bool byte is not 0 or 1.
 */
export function decodeQuoteMessage(
  bytes: Uint8Array,
  options: { hasVersion: boolean },
): Ed25519QuoteFields {
  const expected = options.hasVersion ? QUOTE_MESSAGE_LENGTH_WITH_VERSION : QUOTE_MESSAGE_LENGTH;
  if (!(bytes instanceof Uint8Array) || bytes.length !== expected) {
    throw new RangeError(
      `quote message must be ${expected} bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
    );
  }
  const boolByte = bytes[expected - 1]!;
  if (boolByte > 1)
    throw new RangeError(`quote message isNative byte must be 0 or 1, got ${boolByte}`);
  if (options.hasVersion) {
    const m = VersionedQuoteMessage.parse(bytes);
    if (m.version !== 1 && m.version !== 2)
      throw new RangeError(`quote message version must be 1 or 2, got ${m.version}`);
    return {
      version: m.version,
      localDomain: m.localDomain,
      destinationDomain: m.destinationDomain,
      fee: BigInt(m.fee),
      deadline: BigInt(m.deadline),
      isNative: m.isNative,
    };
  }
  const m = QuoteMessage.parse(bytes);
  return {
    localDomain: m.localDomain,
    destinationDomain: m.destinationDomain,
    fee: BigInt(m.fee),
    deadline: BigInt(m.deadline),
    isNative: m.isNative,
  };
}

/**
 * Signs `message` with Ed25519 (RFC 8032, deterministic).
 *
 * @returns the 64-byte signature.
 */
export function signEd25519(message: Uint8Array, signer: Ed25519Signer): Uint8Array {
  return signer.sign(message);
}

/**
 * Verifies an Ed25519 signature strictly (RFC 8032 with canonical encodings, noble `zip215: false`,
 * the rules Solana's ed25519 program and `ed25519-dalek` `verify_strict` apply).
 *
 * @param signature 64 bytes.
 * @param publicKey 32 bytes.
 * @returns false for a wrong signature and for any malformed input (wrong lengths, non-canonical
 *   or off-curve points, non-Uint8Array values); never throws.
 */
export function verifyEd25519(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  if (
    !(signature instanceof Uint8Array) ||
    !(message instanceof Uint8Array) ||
    !(publicKey instanceof Uint8Array)
  ) {
    return false;
  }
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}
