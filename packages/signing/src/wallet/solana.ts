/** Solana wallet signatures: Ed25519 over the UTF-8 message, address = base58 public key. */
import { base58 } from '@scure/base';
import { decodeBase58, decodeCandidates } from '../encoding.js';
import { verifyEd25519 } from '../ed25519-quote.js';
import { WalletSignatureError } from '../errors.js';
import type { WalletSignatureResult } from './types.js';

/**
 * Verifies a Solana `signMessage` signature: Ed25519 (strict) over the UTF-8 bytes of `message`,
 * by the public key that `address` (base58, 32 bytes) encodes.
 *
 * @param signature 64 bytes as base58, hex (optional 0x) or base64.
 * @throws {WalletSignatureError} `INVALID_INPUT` when the address is not base58 of 32 bytes or the
 *   signature is not 64 bytes in a supported encoding; `INVALID_SIGNATURE` when it does not verify.
 */
export function verifySolanaSignature(
  address: string,
  message: string,
  signature: string,
): WalletSignatureResult {
  const publicKey = decodeBase58(address);
  if (publicKey?.length !== 32)
    throw new WalletSignatureError('INVALID_INPUT', 'solana address must be base58 of 32 bytes');
  const candidates = decodeCandidates(signature, 64, ['base58', 'hex', 'base64']);
  if (candidates.length === 0) {
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'solana signature must be 64 bytes as base58, hex or base64',
    );
  }
  const bytes = new TextEncoder().encode(message);
  if (!candidates.some((sig) => verifyEd25519(sig, bytes, publicKey))) {
    throw new WalletSignatureError(
      'INVALID_SIGNATURE',
      'solana signature does not match the address and message',
    );
  }
  return { address: base58.encode(publicKey), message, format: 'message' };
}
