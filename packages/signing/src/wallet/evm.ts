/** EVM wallet signatures: EIP-191 `personal_sign` by an externally owned account. */
import {
  type Hex,
  compactSignatureToSignature,
  getAddress,
  parseCompactSignature,
  serializeSignature,
  verifyMessage,
} from 'viem';
import { WalletSignatureError } from '../errors.js';
import type { WalletSignatureResult } from './types.js';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
// 65-byte r||s||v, or the 64-byte EIP-2098 compact form some wallets return.
const SIGNATURE_RE = /^(?:0x)?(?:[0-9a-fA-F]{130}|[0-9a-fA-F]{128})$/;

/**
 * Verifies an EIP-191 `personal_sign` signature over `message` (UTF-8) for `address` (any
 * letter case; compared case-insensitively). Contract wallets (EIP-1271) are not supported.
 *
 * @throws {WalletSignatureError} `INVALID_INPUT` for a malformed address or signature encoding,
 *   `INVALID_SIGNATURE` when the signature does not recover to `address`.
 */
export async function verifyEvmSignature(
  address: string,
  message: string,
  signature: string,
): Promise<WalletSignatureResult> {
  if (!ADDRESS_RE.test(address))
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'evm address must be 0x followed by 40 hex digits',
    );
  if (!SIGNATURE_RE.test(signature)) {
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'evm signature must be 65 (or 64 compact) bytes of hex',
    );
  }
  const normalized = getAddress(address.toLowerCase());
  const prefixed = (signature.startsWith('0x') ? signature : `0x${signature}`) as Hex;
  let valid: boolean;
  try {
    // viem's verifyMessage wants r||s||v; expand the EIP-2098 form (yParity in the top bit of s).
    const sig =
      prefixed.length === 130
        ? serializeSignature(compactSignatureToSignature(parseCompactSignature(prefixed)))
        : prefixed;
    valid = await verifyMessage({ address: normalized, message, signature: sig });
  } catch {
    // Unrecoverable r/s or an invalid v byte: well-formed text that is not a valid signature.
    valid = false;
  }
  if (!valid)
    throw new WalletSignatureError(
      'INVALID_SIGNATURE',
      'evm signature does not match the address and message',
    );
  return { address: normalized, message, format: 'message' };
}
