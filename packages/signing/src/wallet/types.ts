/** Shared shapes of wallet-binding signature verification (docs/api.md "Wallet binding"). */

/** Chain families a wallet can be bound from (`chain_type`, docs/api.md "Wallet binding"). */
export type WalletChainType = 'evm' | 'solana' | 'sui' | 'aptos';

/** Every supported {@link WalletChainType}, for validation and docs. */
export const WALLET_CHAIN_TYPES: readonly WalletChainType[] = ['evm', 'solana', 'sui', 'aptos'];

/** Input of {@link verifyWalletSignature}. */
export interface WalletSignatureInput {
  /** Chain family of the wallet. */
  chainType: WalletChainType;
  /** Wallet address as the client sent it (EVM 0x hex any case; Solana base58; Sui/Aptos 0x hex, short forms allowed). */
  address: string;
  /** The exact text the user was asked to sign (UTF-8). */
  message: string;
  /** Signature text: EVM 0x hex; Solana base58, hex or base64; Sui serialized base64; Aptos hex or base64. */
  signature: string;
  /** Aptos only (required there): the account's Ed25519 public key, hex (optional 0x) or base64. Ignored elsewhere. */
  publicKey?: string;
  /**
   * Aptos only (optional): the full text an Aptos wallet signed for `signMessage`
   * (`APTOS\n[address: ..\n][application: ..\n][chainId: ..\n]message: <message>\nnonce: <nonce>`).
   * When given, its embedded message must equal `message` and the signature must cover this text.
   */
  fullMessage?: string;
}

/** Result of a successful {@link verifyWalletSignature}. */
export interface WalletSignatureResult {
  /**
   * The address in canonical form: EVM EIP-55 checksummed; Solana base58; Sui and Aptos `0x` +
   * 64 lowercase hex digits.
   */
  address: string;
  /**
   * The message the user approved. Equal to the input `message`, except when an Aptos signature
   * covers a wallet full message passed as `message` itself: then it is the embedded message,
   * which the caller must compare with the expected text.
   */
  message: string;
  /** What exactly was signed: the message itself, or the Aptos wallet full-message envelope. */
  format: 'message' | 'aptos-full-message';
}
