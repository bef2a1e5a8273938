/**
 * ECDSA relayer-fee quotes for EVM origins (docs/api.md "ECDSA quote"; docs/decisions.md
 * "D1. Quote packing per origin chain"): the packed digest, its signature and signer recovery.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { type Address, type Hex, encodePacked, keccak256 } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { decodeHex, toHex } from './encoding.js';
import { QuoteFieldError } from './errors.js';
import type { Secp256k1Signer } from './keys.js';

/**
 * How the quote fields are packed before hashing.
 * - `spec` (default): `uint32, uint32, uint256 fee, uint256 deadline, bool, uint8` (74 bytes), as docs/api.md "ECDSA quote" states.
 * - `compact`: `uint32, uint32, uint128 fee, uint64 deadline, bool, uint8` (34 bytes), what the
 *   transfer contracts deployed today rebuild. A per-origin-chain setting.
 */
export type QuotePacking = 'spec' | 'compact';

/** The fields an ECDSA quote signs (docs/api.md "ECDSA quote"). */
export interface EcdsaQuoteFields {
  /** Origin CCTP domain (uint32). */
  localDomain: number;
  /** Destination CCTP domain (uint32). */
  destinationDomain: number;
  /** Relayer fee: bridge asset base units (6 decimals) when `isNative` is false, origin native base units (wei) when true. */
  fee: bigint;
  /** UNIX timestamp in seconds after which the contract rejects the quote. */
  deadline: bigint;
  /** True when the fee and gas drop are paid in the origin native token. */
  isNative: boolean;
  /** 1 for `transfer`/`transferWithPermit` (isV2=false), 2 for the v2 variants (isV2=true). */
  cctpVersion: 1 | 2;
}

const UINT32_MAX = 0xffff_ffff;
const FIELD_BITS: Record<QuotePacking, { fee: 256 | 128; deadline: 256 | 64 }> = {
  spec: { fee: 256, deadline: 256 },
  compact: { fee: 128, deadline: 64 },
};

/** Checks that `value` is an integer domain id within uint32. */
export function assertDomain(field: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw new QuoteFieldError(
      field,
      `must be an integer in [0, ${UINT32_MAX}], got ${String(value)}`,
    );
  }
}

/** Checks that `value` is a bigint within an unsigned integer of `bits` bits. */
export function assertUint(field: string, value: bigint, bits: number): void {
  if (typeof value !== 'bigint') throw new QuoteFieldError(field, 'must be a bigint');
  if (value < 0n || value >= 1n << BigInt(bits)) {
    throw new QuoteFieldError(field, `must fit in uint${bits}, got ${value.toString()}`);
  }
}

function assertFields(fields: EcdsaQuoteFields, packing: QuotePacking): void {
  const bits = FIELD_BITS[packing];
  if (!bits)
    throw new QuoteFieldError('packing', `must be 'spec' or 'compact', got ${String(packing)}`);
  assertDomain('localDomain', fields.localDomain);
  assertDomain('destinationDomain', fields.destinationDomain);
  assertUint('fee', fields.fee, bits.fee);
  assertUint('deadline', fields.deadline, bits.deadline);
  if (typeof fields.isNative !== 'boolean')
    throw new QuoteFieldError('isNative', 'must be a boolean');
  if (fields.cctpVersion !== 1 && fields.cctpVersion !== 2) {
    throw new QuoteFieldError('cctpVersion', `must be 1 or 2, got ${String(fields.cctpVersion)}`);
  }
}

/**
 * The packed encoding that the quote digest hashes: 74 bytes for `spec`, 34 for `compact`.
 *
 * @throws {QuoteFieldError} when a field does not fit its width for this packing.
 */
export function encodeQuotePacked(fields: EcdsaQuoteFields, packing: QuotePacking): Hex {
  assertFields(fields, packing);
  const { localDomain, destinationDomain, fee, deadline, isNative, cctpVersion } = fields;
  if (packing === 'compact') {
    return encodePacked(
      ['uint32', 'uint32', 'uint128', 'uint64', 'bool', 'uint8'],
      [localDomain, destinationDomain, fee, deadline, isNative, cctpVersion],
    );
  }
  return encodePacked(
    ['uint32', 'uint32', 'uint256', 'uint256', 'bool', 'uint8'],
    [localDomain, destinationDomain, fee, deadline, isNative, cctpVersion],
  );
}

/**
 * The digest an ECDSA quote signs: `keccak256(abi.encodePacked(uint32 localDomain,
 * uint32 destinationDomain, uint256 fee, uint256 deadline, bool isNative, uint8 cctpVersion))`
 * for `spec`, with `uint128 fee, uint64 deadline` for `compact` (docs/decisions.md "D1. Quote packing per origin chain").
 *
 * @returns 32-byte `0x` hex digest.
 * @throws {QuoteFieldError} (a `RangeError`) when a domain is not uint32, fee/deadline do not fit
 *   the packing's width or are negative, or cctpVersion is not 1 or 2.
 * @example
 * quoteDigest({ localDomain: 0, destinationDomain: 3, fee: 200000n, deadline: 1700000100n,
 *   isNative: false, cctpVersion: 2 }, 'spec');
 */
export function quoteDigest(fields: EcdsaQuoteFields, packing: QuotePacking): Hex {
  return keccak256(encodeQuotePacked(fields, packing));
}

/**
 * Signs a quote: the raw {@link quoteDigest} (no EIP-191 prefix), deterministic (RFC 6979) and
 * low-s, so the same quote in the same second yields the same signature.
 *
 * @returns 65-byte `0x` hex `r || s || v`, v in {27, 28}; Solidity `ecrecover(digest, v, r, s)`
 *   returns `signer.address`.
 * @throws {QuoteFieldError} as {@link quoteDigest}.
 */
export function signQuote(
  fields: EcdsaQuoteFields,
  packing: QuotePacking,
  signer: Secp256k1Signer,
): Hex {
  return signer.signDigest(quoteDigest(fields, packing));
}

/**
 * Recovers the address that signed a quote (the inverse of {@link signQuote}), the way Solidity
 * `ecrecover` does: high-s signatures are recovered too, as the contract would.
 *
 * @param signature 65-byte `0x` hex `r || s || v`, v in {27, 28} (0 and 1 are accepted as well).
 * @returns EIP-55 checksummed address. A signature over different fields recovers a different,
 *   unrelated address, so always compare the result with the expected signer.
 * @throws {QuoteFieldError} as {@link quoteDigest}.
 * @throws {TypeError} when the signature is not 65 bytes of hex, v is not 27/28/0/1, or r/s do not
 *   describe a recoverable point.
 */
export function recoverQuoteSigner(
  fields: EcdsaQuoteFields,
  packing: QuotePacking,
  signature: Hex,
): Address {
  const digest = quoteDigest(fields, packing);
  return recoverDigestSigner(digest, signature);
}

/**
 * Recovers the signer address of a raw 32-byte digest from a 65-byte `r || s || v` signature
 * (no EIP-191 prefix), like Solidity `ecrecover`.
 *
 * @throws {TypeError} as {@link recoverQuoteSigner}.
 */
export function recoverDigestSigner(digest: Hex, signature: Hex): Address {
  const sig =
    typeof signature === 'string' && /^0x[0-9a-fA-F]{130}$/.test(signature)
      ? decodeHex(signature)
      : undefined;
  const hash =
    typeof digest === 'string' && /^0x[0-9a-fA-F]{64}$/.test(digest)
      ? decodeHex(digest)
      : undefined;
  if (!sig) throw new TypeError('signature must be 65 bytes of 0x-prefixed hex (r || s || v)');
  if (!hash) throw new TypeError('digest must be 32 bytes of 0x-prefixed hex');
  const v = sig[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1)
    throw new TypeError(`signature v must be 27 or 28, got ${v}`);
  let publicKey: Uint8Array;
  try {
    const parsed = secp256k1.Signature.fromBytes(
      Uint8Array.of(recovery, ...sig.subarray(0, 64)),
      'recovered',
    );
    publicKey = parsed.recoverPublicKey(hash).toBytes(false);
  } catch (cause) {
    throw new TypeError('signature is not recoverable (r or s out of range)', { cause });
  }
  return publicKeyToAddress(`0x${toHex(publicKey)}`);
}
