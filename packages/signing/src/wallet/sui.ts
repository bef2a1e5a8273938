/**
 * Sui wallet signatures: personal-message signatures (intent scope PersonalMessage over the
 * BCS `vector<u8>` of the message, blake2b-256 digest), checked with our own code.
 */
import { bcs } from '@mysten/bcs';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { decodeBase64, decodeHex, toHex } from '../encoding.js';
import { verifyEd25519 } from '../ed25519-quote.js';
import { WalletSignatureError } from '../errors.js';
import type { WalletSignatureResult } from './types.js';

/** Sui signature scheme flags (first byte of a serialized signature and of the address preimage). */
export const SUI_SIGNATURE_FLAGS = { ED25519: 0x00, Secp256k1: 0x01, Secp256r1: 0x02 } as const;

const PUBLIC_KEY_LENGTH: Record<number, number> = { 0x00: 32, 0x01: 33, 0x02: 33 };
const UNSUPPORTED_FLAGS: Record<number, string> = {
  0x03: 'MultiSig',
  0x05: 'zkLogin',
  0x06: 'Passkey',
};

/** Intent prefix of a personal message: scope PersonalMessage (3), version V0 (0), app id Sui (0). */
const PERSONAL_MESSAGE_INTENT = Uint8Array.of(3, 0, 0);

/**
 * The 32-byte digest a Sui wallet signs for `signPersonalMessage(message)`:
 * blake2b-256(`[3, 0, 0]` || BCS `vector<u8>`(message)).
 */
export function suiPersonalMessageDigest(message: Uint8Array): Uint8Array {
  const value = bcs.vector(bcs.u8()).serialize(message).toBytes();
  const intentMessage = new Uint8Array(PERSONAL_MESSAGE_INTENT.length + value.length);
  intentMessage.set(PERSONAL_MESSAGE_INTENT);
  intentMessage.set(value, PERSONAL_MESSAGE_INTENT.length);
  return blake2b(intentMessage, { dkLen: 32 });
}

/**
 * The Sui address of a public key: `0x` + hex of blake2b-256(flag || publicKey), 64 lowercase digits.
 */
export function suiAddressOf(flag: number, publicKey: Uint8Array): string {
  const preimage = new Uint8Array(1 + publicKey.length);
  preimage[0] = flag;
  preimage.set(publicKey, 1);
  return `0x${toHex(blake2b(preimage, { dkLen: 32 }))}`;
}

/**
 * Normalizes a Sui or Aptos style address (`0x` optional, 1..64 hex digits, any case) to `0x` +
 * 64 lowercase hex digits; `undefined` when malformed.
 */
export function normalizeHexAddress(address: string): string | undefined {
  const m = /^(?:0x)?([0-9a-fA-F]{1,64})$/.exec(address);
  if (!m?.[1]) return undefined;
  return `0x${m[1].toLowerCase().padStart(64, '0')}`;
}

/**
 * `address` normalized by {@link normalizeHexAddress} (`0x` + 64 lowercase hex digits).
 *
 * @throws {WalletSignatureError} `INVALID_INPUT` naming `chain` when the address is malformed.
 */
export function requireHexAddress(address: string, chain: 'sui' | 'aptos'): string {
  const normalized = normalizeHexAddress(address);
  if (!normalized)
    throw new WalletSignatureError(
      'INVALID_INPUT',
      `${chain} address must be 0x followed by up to 64 hex digits`,
    );
  return normalized;
}

/**
 * Verifies a Sui personal-message signature for `address`.
 *
 * @param signature the serialized signature, base64 (also accepted as hex) of
 *   `flag || signature (64) || publicKey`: Ed25519 (flag 0x00, 32-byte key), Secp256k1 (0x01) and
 *   Secp256r1 (0x02, 33-byte compressed keys; ECDSA over sha256(digest), low-s).
 * @throws {WalletSignatureError} `INVALID_INPUT` for a malformed address, an undecodable or
 *   wrong-length signature, or an unsupported scheme (MultiSig, zkLogin, Passkey);
 *   `INVALID_SIGNATURE` when the key does not belong to `address` or the signature does not verify.
 */
export function verifySuiSignature(
  address: string,
  message: string,
  signature: string,
): WalletSignatureResult {
  const normalized = requireHexAddress(address, 'sui');
  // base64 is the Sui wire form; hex is accepted too. Hex text is also valid base64, so pick the
  // decoding whose length fits the scheme its first byte names.
  const decodings = [decodeBase64(signature), decodeHex(signature)].filter(
    (b): b is Uint8Array => b !== undefined && b.length > 0,
  );
  if (decodings.length === 0)
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'sui signature must be base64 of flag || signature || public key',
    );
  const serialized = decodings.find((b) => {
    const keyLength = PUBLIC_KEY_LENGTH[b[0]!];
    return keyLength !== undefined && b.length === 1 + 64 + keyLength;
  });
  if (!serialized) {
    const unsupported = UNSUPPORTED_FLAGS[decodings[0]![0]!];
    if (unsupported)
      throw new WalletSignatureError(
        'INVALID_INPUT',
        `sui ${unsupported} signatures are not supported`,
      );
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'sui signature must be flag || 64-byte signature || public key (97 bytes for Ed25519, 98 for Secp256k1/Secp256r1)',
    );
  }
  const flag = serialized[0]!;
  const sig = serialized.subarray(1, 65);
  const publicKey = serialized.subarray(65);
  if (suiAddressOf(flag, publicKey) !== normalized) {
    throw new WalletSignatureError(
      'INVALID_SIGNATURE',
      'sui signature public key does not belong to the address',
    );
  }
  const digest = suiPersonalMessageDigest(new TextEncoder().encode(message));
  if (!verifySuiScheme(flag, sig, digest, publicKey)) {
    throw new WalletSignatureError(
      'INVALID_SIGNATURE',
      'sui signature does not match the address and message',
    );
  }
  return { address: normalized, message, format: 'message' };
}

function verifySuiScheme(
  flag: number,
  sig: Uint8Array,
  digest: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  if (flag === SUI_SIGNATURE_FLAGS.ED25519) return verifyEd25519(sig, digest, publicKey);
  const curve = flag === SUI_SIGNATURE_FLAGS.Secp256k1 ? secp256k1 : p256;
  try {
    // Sui's secp256k1/secp256r1 keys sign sha256(digest) (noble's default prehash) with low-s.
    return curve.verify(sig, digest, publicKey, { prehash: true, lowS: true });
  } catch {
    return false;
  }
}
