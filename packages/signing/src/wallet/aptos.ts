/**
 * Aptos wallet signatures: Ed25519 with the account's public key, either over the message itself
 * or over the wallet-standard `signMessage` full message that embeds it.
 */
import { sha3_256 } from '@noble/hashes/sha3.js';
import { decodeCandidates, toHex } from '../encoding.js';
import { verifyEd25519 } from '../ed25519-quote.js';
import { WalletSignatureError } from '../errors.js';
import { normalizeHexAddress, requireHexAddress } from './sui.js';
import type { WalletSignatureResult } from './types.js';

/** Parts of an Aptos wallet `signMessage` full message. */
export interface AptosFullMessage {
  /** `address:` line, when the dapp asked for it. */
  address?: string;
  /** `application:` line (the dapp origin), when asked for. */
  application?: string;
  /** `chainId:` line, when asked for. */
  chainId?: string;
  /** The dapp's message. */
  message: string;
  /** The dapp's nonce. */
  nonce: string;
}

// Header lines appear in this order and are optional; the message may span lines; the nonce is last.
const FULL_MESSAGE_RE =
  /^APTOS(?:\naddress: ([^\n]*))?(?:\napplication: ([^\n]*))?(?:\nchainId: ([^\n]*))?\nmessage: ([\s\S]*)\nnonce: ([^\n]*)$/;

/**
 * Parses the text an Aptos wallet signs for `signMessage` (AIP-62 wallet standard / Petra):
 * `APTOS` then optional `address: `, `application: `, `chainId: ` lines, then `message: <message>`
 * and `nonce: <nonce>`, joined by `\n`. Returns `undefined` when `text` is not in that format.
 */
export function parseAptosFullMessage(text: string): AptosFullMessage | undefined {
  const m = FULL_MESSAGE_RE.exec(text);
  if (!m) return undefined;
  const [, address, application, chainId, message, nonce] = m;
  return {
    ...(address !== undefined && { address }),
    ...(application !== undefined && { application }),
    ...(chainId !== undefined && { chainId }),
    message: message ?? '',
    nonce: nonce ?? '',
  };
}

/** Builds the Aptos wallet full message (inverse of {@link parseAptosFullMessage}). */
export function buildAptosFullMessage(parts: AptosFullMessage): string {
  let text = 'APTOS';
  if (parts.address !== undefined) text += `\naddress: ${parts.address}`;
  if (parts.application !== undefined) text += `\napplication: ${parts.application}`;
  if (parts.chainId !== undefined) text += `\nchainId: ${parts.chainId}`;
  return `${text}\nmessage: ${parts.message}\nnonce: ${parts.nonce}`;
}

/**
 * The address of a single-key Ed25519 account: `0x` + hex of sha3-256(publicKey || 0x00)
 * (64 lowercase digits). Accounts that rotated their key keep their original address, which this
 * cannot know; such wallets fail the address check.
 */
export function aptosAddressOf(publicKey: Uint8Array): string {
  const preimage = new Uint8Array(publicKey.length + 1);
  preimage.set(publicKey);
  preimage[publicKey.length] = 0x00;
  return `0x${toHex(sha3_256(preimage))}`;
}

/**
 * Verifies an Aptos Ed25519 signature for `address`. Accepted:
 * - a signature over the UTF-8 `message` itself;
 * - a signature over `fullMessage` (wallet `signMessage` format) whose embedded message equals `message`;
 * - a signature over `message` when `message` itself is a wallet full message: the result's
 *   `message` is then the embedded message, which the caller must compare with the expected text.
 * When a full message carries an `address:` line it must name the same account.
 *
 * @param publicKey 32-byte Ed25519 public key, hex (optional 0x) or base64; required.
 * @throws {WalletSignatureError} `INVALID_INPUT` for a missing/malformed public key, address,
 *   signature, or a `fullMessage` not in the wallet format; `INVALID_SIGNATURE` when the key does
 *   not derive `address`, the embedded message differs, or the signature does not verify.
 */
export function verifyAptosSignature(
  address: string,
  message: string,
  signature: string,
  publicKey: string | undefined,
  fullMessage?: string,
): WalletSignatureResult {
  const normalized = requireHexAddress(address, 'aptos');
  if (publicKey === undefined || publicKey === '')
    throw new WalletSignatureError('INVALID_INPUT', 'aptos public key is required');
  const keys = decodeCandidates(publicKey, 32, ['hex', 'base64']);
  if (keys.length === 0)
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'aptos public key must be 32 bytes as hex or base64',
    );
  const sigs = decodeCandidates(signature, 64, ['hex', 'base64']);
  if (sigs.length === 0)
    throw new WalletSignatureError(
      'INVALID_INPUT',
      'aptos signature must be 64 bytes as hex or base64',
    );
  const key = keys.find((k) => aptosAddressOf(k) === normalized);
  if (!key)
    throw new WalletSignatureError(
      'INVALID_SIGNATURE',
      'aptos public key does not belong to the address',
    );

  const verifies = (text: string): boolean => {
    const bytes = new TextEncoder().encode(text);
    return sigs.some((sig) => verifyEd25519(sig, bytes, key));
  };
  const checkEnvelope = (parts: AptosFullMessage): void => {
    if (parts.address !== undefined && normalizeHexAddress(parts.address) !== normalized) {
      throw new WalletSignatureError(
        'INVALID_SIGNATURE',
        'aptos full message names a different address',
      );
    }
  };

  if (fullMessage !== undefined) {
    const parts = parseAptosFullMessage(fullMessage);
    if (!parts)
      throw new WalletSignatureError(
        'INVALID_INPUT',
        'aptos fullMessage is not in the wallet signMessage format',
      );
    if (parts.message !== message)
      throw new WalletSignatureError(
        'INVALID_SIGNATURE',
        'aptos full message embeds a different message',
      );
    checkEnvelope(parts);
    if (!verifies(fullMessage))
      throw new WalletSignatureError(
        'INVALID_SIGNATURE',
        'aptos signature does not match the address and message',
      );
    return { address: normalized, message, format: 'aptos-full-message' };
  }
  if (verifies(message)) {
    const parts = parseAptosFullMessage(message);
    if (parts) {
      checkEnvelope(parts);
      return { address: normalized, message: parts.message, format: 'aptos-full-message' };
    }
    return { address: normalized, message, format: 'message' };
  }
  throw new WalletSignatureError(
    'INVALID_SIGNATURE',
    'aptos signature does not match the address and message',
  );
}
