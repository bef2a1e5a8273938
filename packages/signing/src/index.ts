/**
 * `@ctss/signing`: relayer-fee quote digests and signatures (ECDSA for EVM origins, Ed25519 over
 * BCS for Solana/Aptos/Sui origins), signing-key loading, and wallet-binding signature checks.
 */
export {
  KeyFormatError,
  QuoteFieldError,
  WalletSignatureError,
  type WalletSignatureErrorCode,
} from './errors.js';
export {
  type Ed25519Signer,
  type Secp256k1Signer,
  keyIdOf,
  loadEd25519Signer,
  loadSecp256k1Signer,
} from './keys.js';
export {
  type EcdsaQuoteFields,
  type QuotePacking,
  encodeQuotePacked,
  quoteDigest,
  recoverDigestSigner,
  recoverQuoteSigner,
  signQuote,
} from './ecdsa-quote.js';
export {
  type Ed25519QuoteFields,
  QUOTE_MESSAGE_LENGTH,
  QUOTE_MESSAGE_LENGTH_WITH_VERSION,
  decodeQuoteMessage,
  encodeQuoteMessage,
  signEd25519,
  verifyEd25519,
} from './ed25519-quote.js';
export {
  WALLET_CHAIN_TYPES,
  type WalletChainType,
  type WalletSignatureInput,
  type WalletSignatureResult,
} from './wallet/types.js';
export { verifyWalletSignature } from './wallet/verify.js';
export {
  type AptosFullMessage,
  aptosAddressOf,
  buildAptosFullMessage,
  parseAptosFullMessage,
} from './wallet/aptos.js';
export {
  SUI_SIGNATURE_FLAGS,
  normalizeHexAddress,
  suiAddressOf,
  suiPersonalMessageDigest,
} from './wallet/sui.js';
