/**
 * Signing keys for quotes. A signer keeps its private key in a closure: it is not a property,
 * so it does not show up in `JSON.stringify`, `util.inspect`, logs or error reports.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Address, Hex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { bytesEqual, decodeBase58, decodeBase64, decodeHex, toHex } from './encoding.js';
import { KeyFormatError } from './errors.js';

/**
 * A secp256k1 key that signs 32-byte digests (ECDSA quotes, docs/decisions.md "D1. Quote packing per origin chain").
 * `signDigest` signs the digest as given (no EIP-191 prefix, no extra hashing), deterministically
 * (RFC 6979), low-s, and returns 65-byte `0x` hex `r || s || v` with `v` in {27, 28}, the layout
 * Solidity `ecrecover` and viem `recoverAddress` accept. It throws `TypeError` when the digest
 * is not 32 bytes of `0x` hex.
 */
export interface Secp256k1Signer {
  /** EIP-55 checksummed address of the key. */
  readonly address: Address;
  /** Short stable id of the public key for logs: first 8 bytes of sha256(compressed pubkey), hex. */
  readonly keyId: string;
  /** Signs a 32-byte digest; see the interface documentation. */
  signDigest(digest: Hex): Hex;
}

/**
 * An Ed25519 key (RFC 8032) that signs arbitrary messages (Ed25519 quotes for Solana, Aptos,
 * Sui origins). `sign` returns the 64-byte signature.
 */
export interface Ed25519Signer {
  /** 32-byte public key (a copy; mutating it does not affect the signer). */
  readonly publicKey: Uint8Array;
  /** Short stable id of the public key for logs: first 8 bytes of sha256(pubkey), hex. */
  readonly keyId: string;
  /** Signs `message` (any length); returns 64 bytes. */
  sign(message: Uint8Array): Uint8Array;
}

/** First 8 bytes of sha256(publicKey), hex: a public, stable identifier for logs. */
export function keyIdOf(publicKey: Uint8Array): string {
  return toHex(sha256(publicKey).subarray(0, 8));
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Adds `toJSON`, `toString` and Node's inspect hook that show only public fields, then freezes. */
function sealSigner<T extends object>(
  signer: T,
  label: string,
  publicView: Record<string, string>,
): T {
  const describe = (): string => `${label} ${JSON.stringify(publicView)}`;
  Object.defineProperties(signer, {
    toJSON: { value: () => ({ ...publicView }), enumerable: false },
    toString: { value: describe, enumerable: false },
    [INSPECT]: { value: describe, enumerable: false },
  });
  return Object.freeze(signer);
}

const DIGEST_RE = /^0x[0-9a-fA-F]{64}$/;

/**
 * Builds a secp256k1 signer from a private key given as 32 bytes of hex, with or without `0x`
 * (surrounding whitespace is ignored, so a value read from a file with a trailing newline works).
 *
 * @throws {KeyFormatError} when the value is not 32 bytes of hex or is not a valid scalar
 *   (zero or >= the curve order). The message never contains the value.
 * @example
 * const signer = loadSecp256k1Signer(process.env.ECDSA_SIGNER_KEY);
 * signer.address; // '0x...'
 */
export function loadSecp256k1Signer(value: string): Secp256k1Signer {
  const trimmed = value.trim();
  const secret = /^(?:0x)?[0-9a-fA-F]{64}$/.test(trimmed) ? decodeHex(trimmed) : undefined;
  if (!secret)
    throw new KeyFormatError('secp256k1 key must be 32 bytes of hex (64 hex digits, optional 0x)');
  if (!secp256k1.utils.isValidSecretKey(secret)) {
    throw new KeyFormatError(
      'secp256k1 key is not a valid scalar (zero or not below the curve order)',
    );
  }
  const uncompressed = secp256k1.getPublicKey(secret, false);
  const address = publicKeyToAddress(`0x${toHex(uncompressed)}`);
  const keyId = keyIdOf(secp256k1.getPublicKey(secret, true));

  const signer: Secp256k1Signer = {
    address,
    keyId,
    signDigest(digest: Hex): Hex {
      if (typeof digest !== 'string' || !DIGEST_RE.test(digest)) {
        throw new TypeError('digest must be 32 bytes of 0x-prefixed hex');
      }
      // noble's 'recovered' layout is recovery || r || s; Ethereum wants r || s || (27 + recovery).
      const sig = secp256k1.sign(decodeHex(digest)!, secret, {
        prehash: false,
        lowS: true,
        format: 'recovered',
      });
      const v = 27 + sig[0]!;
      return `0x${toHex(sig.subarray(1))}${v.toString(16)}`;
    },
  };
  return sealSigner(signer, 'Secp256k1Signer', { address, keyId });
}

/**
 * Reads an Ed25519 secret key from its text form. Accepted forms (surrounding whitespace ignored):
 * - hex (optional `0x`): a 32-byte seed, or 64 bytes `seed || publicKey` (Solana keypair layout);
 * - a JSON array of 64 (or 32) byte values, the content of a `solana-keygen` keypair file;
 * - base58 (Solana CLI / wallet export) of 64 or 32 bytes;
 * - base64 of 64 or 32 bytes.
 * Returns the 32-byte seed.
 *
 * @throws {KeyFormatError} when no form matches, or a 64-byte keypair's public half does not
 *   match its seed.
 */
function parseEd25519Secret(value: string): Uint8Array {
  const text = value.trim();
  let bytes: Uint8Array | undefined;
  if (text.startsWith('[')) {
    bytes = parseJsonByteArray(text);
    if (!bytes)
      throw new KeyFormatError('ed25519 key JSON must be an array of 32 or 64 integers 0..255');
  } else if (
    /^(?:0x)?[0-9a-fA-F]+$/.test(text) &&
    (text.replace(/^0x/, '').length === 64 || text.replace(/^0x/, '').length === 128)
  ) {
    bytes = decodeHex(text);
  } else {
    // Unpadded base64 can also be valid base58: prefer the decoding that is a consistent keypair.
    const candidates = [decodeBase58(text), decodeBase64(text)].filter(
      (b) => b?.length === 32 || b?.length === 64,
    );
    bytes =
      candidates.find(
        (b) =>
          b?.length === 64 && bytesEqual(ed25519.getPublicKey(b.subarray(0, 32)), b.subarray(32)),
      ) ?? candidates[0];
  }
  if (bytes?.length !== 32 && bytes?.length !== 64) {
    throw new KeyFormatError(
      'ed25519 key must be a 32-byte seed or 64-byte seed||publicKey in hex, base58, base64 or a JSON byte array',
    );
  }
  const seed = bytes.slice(0, 32);
  if (bytes.length === 64) {
    const derived = ed25519.getPublicKey(seed);
    if (!bytesEqual(derived, bytes.subarray(32))) {
      throw new KeyFormatError('ed25519 keypair: the public key half does not match the seed');
    }
  }
  return seed;
}

function parseJsonByteArray(text: string): Uint8Array | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  if (
    !parsed.every(
      (n): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 255,
    )
  ) {
    return undefined;
  }
  return Uint8Array.from(parsed);
}

/**
 * Builds an Ed25519 signer from a secret key in any of the common text forms: hex (32-byte seed
 * or 64-byte `seed || publicKey`), base58 (Solana CLI style, 64 or 32 bytes), base64, or the JSON
 * array of 64 numbers that `solana-keygen` writes.
 *
 * @throws {KeyFormatError} when the value matches none of those forms or a 64-byte keypair is
 *   inconsistent. The message never contains the value.
 * @example
 * const signer = loadEd25519Signer(fs.readFileSync('id.json', 'utf8'));
 * const sig = signer.sign(message); // 64 bytes
 */
export function loadEd25519Signer(value: string): Ed25519Signer {
  const seed = parseEd25519Secret(value);
  const publicKey = ed25519.getPublicKey(seed);
  const keyId = keyIdOf(publicKey);
  const publicKeyHex = `0x${toHex(publicKey)}`;

  const signer: Ed25519Signer = {
    get publicKey() {
      return publicKey.slice();
    },
    keyId,
    sign(message: Uint8Array): Uint8Array {
      if (!(message instanceof Uint8Array)) throw new TypeError('message must be a Uint8Array');
      return ed25519.sign(message, seed);
    },
  };
  return sealSigner(signer, 'Ed25519Signer', { publicKey: publicKeyHex, keyId });
}
