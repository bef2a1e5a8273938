/** Wallet-binding signature verification entry point (docs/api.md "Wallet binding";
 * docs/decisions.md "D12. Wallet signature schemes"). */
import { WalletSignatureError } from '../errors.js';
import { verifyAptosSignature } from './aptos.js';
import { verifyEvmSignature } from './evm.js';
import { verifySolanaSignature } from './solana.js';
import { verifySuiSignature } from './sui.js';
import {
  WALLET_CHAIN_TYPES,
  type WalletSignatureInput,
  type WalletSignatureResult,
} from './types.js';

/**
 * Checks that `signature` proves control of `address` over `message`, by chain family:
 * - `evm`: EIP-191 `personal_sign` (EOA), 0x hex signature; address compared case-insensitively.
 * - `solana`: Ed25519 over the UTF-8 message; address = base58 public key; signature base58, hex or base64.
 * - `sui`: personal message (intent + BCS `vector<u8>`, blake2b-256); serialized base64
 *   `flag || sig || pubkey` (Ed25519, Secp256k1, Secp256r1); address = blake2b-256(flag || pubkey).
 * - `aptos`: Ed25519 with `publicKey` (hex or base64, required); address = sha3-256(pubkey || 0x00);
 *   the signature may cover the message itself or the wallet full-message format (see `fullMessage`).
 *
 * The caller still checks that `message` is the expected text with a fresh nonce; compare the
 * result's `message` (see {@link WalletSignatureResult}).
 *
 * @returns the canonical address and what was signed.
 * @throws {WalletSignatureError} `INVALID_INPUT` (HTTP 400) for an unknown chain type, non-string
 *   fields, or malformed address/signature/public key encodings; `INVALID_SIGNATURE` (HTTP 401)
 *   when a well-formed signature does not verify for that address and message.
 * @example
 * const { address } = await verifyWalletSignature({ chainType: 'evm', address, message, signature });
 */
export async function verifyWalletSignature(
  input: WalletSignatureInput,
): Promise<WalletSignatureResult> {
  const { chainType, address, message, signature, publicKey, fullMessage } = input;
  if (!(WALLET_CHAIN_TYPES as readonly string[]).includes(chainType)) {
    throw new WalletSignatureError(
      'INVALID_INPUT',
      `chain type must be one of ${WALLET_CHAIN_TYPES.join(', ')}`,
    );
  }
  for (const [name, value] of [
    ['address', address],
    ['message', message],
    ['signature', signature],
  ] as const) {
    if (typeof value !== 'string' || value.length === 0)
      throw new WalletSignatureError('INVALID_INPUT', `${name} must be a non-empty string`);
  }
  if (publicKey !== undefined && typeof publicKey !== 'string')
    throw new WalletSignatureError('INVALID_INPUT', 'publicKey must be a string');
  if (fullMessage !== undefined && typeof fullMessage !== 'string')
    throw new WalletSignatureError('INVALID_INPUT', 'fullMessage must be a string');
  switch (chainType) {
    case 'evm':
      return verifyEvmSignature(address, message, signature);
    case 'solana':
      return verifySolanaSignature(address, message, signature);
    case 'sui':
      return verifySuiSignature(address, message, signature);
    case 'aptos':
      return verifyAptosSignature(address, message, signature, publicKey, fullMessage);
  }
}
