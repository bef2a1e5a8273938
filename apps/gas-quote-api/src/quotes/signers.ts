/**
 * Loads the quote signing keys from configuration. Without them outside production, ephemeral
 * keys are generated at start and a warning names their key ids (never the keys).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '@ctss/server-kit';
import {
  loadEd25519Signer,
  loadSecp256k1Signer,
  type Ed25519Signer,
  type Secp256k1Signer,
} from '@ctss/signing';
import type { GasQuoteConfig } from '../config.js';

/** Both quote signers. */
export interface QuoteSigners {
  readonly ecdsa: Secp256k1Signer;
  readonly ed25519: Ed25519Signer;
}

/**
 * Loads or (outside production) generates the signers.
 * @throws KeyFormatError (@ctss/signing) when a configured key is malformed; the message never contains it.
 */
export function loadSigners(config: GasQuoteConfig, logger: Logger): QuoteSigners {
  const ecdsa = config.SIGNER_ECDSA_PRIVATE_KEY
    ? loadSecp256k1Signer(config.SIGNER_ECDSA_PRIVATE_KEY)
    : loadSecp256k1Signer(randomBytes(32).toString('hex'));
  const ed25519 = config.SIGNER_ED25519_PRIVATE_KEY
    ? loadEd25519Signer(config.SIGNER_ED25519_PRIVATE_KEY)
    : loadEd25519Signer(randomBytes(32).toString('hex'));
  if (!config.SIGNER_ECDSA_PRIVATE_KEY) {
    logger.warn(
      { keyId: ecdsa.keyId, address: ecdsa.address },
      'SIGNER_ECDSA_PRIVATE_KEY not set: using an ephemeral ECDSA key',
    );
  }
  if (!config.SIGNER_ED25519_PRIVATE_KEY) {
    logger.warn(
      { keyId: ed25519.keyId },
      'SIGNER_ED25519_PRIVATE_KEY not set: using an ephemeral Ed25519 key',
    );
  }
  return { ecdsa, ed25519 };
}
