/**
 * Strict decoders for the text encodings that keys and signatures arrive in (hex, base58,
 * base64). Each returns `undefined` instead of throwing so callers can try several encodings
 * and report one clear error of their own.
 */
import { base58, base64, base64nopad, base64url, base64urlnopad } from '@scure/base';

const HEX_RE = /^(?:0x)?((?:[0-9a-fA-F]{2})*)$/;

/** Decodes hex with an optional `0x` prefix (even length, no whitespace); `undefined` if malformed or empty. */
export function decodeHex(value: string): Uint8Array | undefined {
  const m = HEX_RE.exec(value);
  if (!m?.[1]) return undefined;
  return Uint8Array.from(Buffer.from(m[1], 'hex'));
}

/** Decodes Bitcoin-alphabet base58 (Solana addresses, keys, signatures); `undefined` if malformed. */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (value.length === 0) return undefined;
  try {
    return base58.decode(value);
  } catch {
    return undefined;
  }
}

/** Decodes base64 (standard or URL alphabet, padded or not); `undefined` if malformed. */
export function decodeBase64(value: string): Uint8Array | undefined {
  if (value.length === 0) return undefined;
  for (const coder of [base64, base64nopad, base64url, base64urlnopad]) {
    try {
      return coder.decode(value);
    } catch {
      // Try the next alphabet / padding variant.
    }
  }
  return undefined;
}

/** Encodings {@link decodeCandidates} can try. */
export type TextEncoding = 'hex' | 'base58' | 'base64';

const DECODERS: Record<TextEncoding, (value: string) => Uint8Array | undefined> = {
  hex: decodeHex,
  base58: decodeBase58,
  base64: decodeBase64,
};

/**
 * Every distinct decoding of `value` under `encodings` that has exactly `length` bytes. Some
 * strings are valid in two encodings (a base58 string can also be base64); callers that verify a
 * signature try each candidate, which is safe because a forged candidate still has to verify.
 */
export function decodeCandidates(
  value: string,
  length: number,
  encodings: readonly TextEncoding[],
): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const encoding of encodings) {
    const bytes = DECODERS[encoding](value.trim() === value ? value : '');
    if (bytes?.length !== length) continue;
    if (!out.some((b) => bytesEqual(b, bytes))) out.push(bytes);
  }
  return out;
}

/** Constant-length byte comparison (not constant-time; only used on public data). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Lowercase hex without prefix. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
