/**
 * The errors the SDK throws. Every one extends {@link CtssSdkError}, so a caller can catch the
 * SDK's failures apart from others and switch on `code`.
 */
import type { ErrorCode } from '@ctss/domain-types';

/** Base class of the SDK's errors. */
export class CtssSdkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * An API answered with an RFC 9457 problem details body (docs/api.md "Errors"). `code` is the
 * stable machine code (`RATE_LIMITED`, `UNSUPPORTED_ROUTE`, ...); `retryAfterSeconds` is the
 * `Retry-After` header when present.
 */
export class ApiProblemError extends CtssSdkError {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'UNKNOWN',
    readonly detail: string,
    readonly url: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${code}: ${detail} (${url})`);
  }

  /** True for answers worth retrying: 429, or a 5xx carrying `Retry-After` (docs/api.md "Errors"). */
  get retryable(): boolean {
    return this.status === 429 || (this.status >= 500 && this.retryAfterSeconds !== undefined);
  }
}

/** A response body that is not what the API documents (schema validation failed, not JSON). */
export class ResponseValidationError extends CtssSdkError {
  constructor(
    readonly url: string,
    readonly issues: string,
    options?: { cause?: unknown },
  ) {
    super(`unexpected response from ${url}: ${issues}`, options);
  }
}

/** The network failed (connection refused, reset, DNS) before an HTTP answer arrived. */
export class NetworkError extends CtssSdkError {
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(
      `request to ${url} failed: ${(options?.cause as Error | undefined)?.message ?? 'network error'}`,
      options,
    );
  }
}

/** Why a quote was refused by {@link QuoteRefusedError}. */
export type QuoteRefusalCode =
  'BAD_SIGNATURE' | 'WRONG_SIGNER' | 'EXPIRED' | 'FIELD_MISMATCH' | 'NO_SIGNER';

/**
 * A quote failed local verification: its signature does not verify (`BAD_SIGNATURE`), it was
 * signed by a key other than the pinned one (`WRONG_SIGNER`), its deadline has passed or is too
 * close (`EXPIRED`), it answers another route than the one asked (`FIELD_MISMATCH`), or no signer
 * identity is known to check it against (`NO_SIGNER`). No transaction is built from such a quote.
 */
export class QuoteRefusedError extends CtssSdkError {
  constructor(
    readonly code: QuoteRefusalCode,
    detail: string,
  ) {
    super(`quote refused (${code}): ${detail}`);
  }
}

/** An argument of buildTransfer/sendTransfer is out of range, of the wrong unit or family. */
export class TransferInputError extends CtssSdkError {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/** trackTransfer ended without settlement: `reason` says whether it timed out or was aborted. */
export class TrackingEndedError extends CtssSdkError {
  constructor(
    readonly reason: 'timeout' | 'aborted',
    readonly hash: string,
  ) {
    super(`tracking of ${hash} ended: ${reason}`);
  }
}
