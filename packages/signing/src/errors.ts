/**
 * Typed errors thrown by `@ctss/signing`. Each carries a stable `code` so callers (the HTTP
 * layers) can map it to a problem body without matching on message text.
 */

/**
 * A quote field does not fit the width of its packed or BCS encoding (for example a fee above
 * 2^128 - 1 with the `compact` packing, a deadline above 2^64 - 1, or a domain outside uint32).
 * It is a `RangeError`, so `instanceof RangeError` also holds.
 */
export class QuoteFieldError extends RangeError {
  /** Stable machine code. */
  readonly code = 'QUOTE_FIELD_OUT_OF_RANGE' as const;
  /** Name of the offending field, e.g. `fee`. */
  readonly field: string;

  constructor(field: string, detail: string) {
    super(`quote field ${field} ${detail}`);
    this.name = 'QuoteFieldError';
    this.field = field;
  }
}

/**
 * A signing key could not be parsed (wrong encoding, wrong length, out of the curve's range,
 * or a keypair whose public half does not match its seed). The message never contains the key
 * material, only what was wrong with it.
 */
export class KeyFormatError extends Error {
  /** Stable machine code. */
  readonly code = 'KEY_FORMAT' as const;

  constructor(detail: string) {
    super(`invalid signing key: ${detail}`);
    this.name = 'KeyFormatError';
  }
}

/** Why a wallet signature was refused; see {@link WalletSignatureError}. */
export type WalletSignatureErrorCode = 'INVALID_SIGNATURE' | 'INVALID_INPUT';

/**
 * A wallet-binding signature was refused (docs/api.md "Wallet binding").
 * - `INVALID_INPUT`: the address, signature or public key is not a well-formed encoding for the
 *   chain (maps to HTTP 400).
 * - `INVALID_SIGNATURE`: the inputs are well formed but the signature does not verify for that
 *   address and message (maps to HTTP 401).
 */
export class WalletSignatureError extends Error {
  /** Stable machine code. */
  readonly code: WalletSignatureErrorCode;

  constructor(code: WalletSignatureErrorCode, detail: string) {
    super(detail);
    this.name = 'WalletSignatureError';
    this.code = code;
  }
}
