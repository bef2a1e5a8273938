/** RFC 9457 problem details with a stable machine code (docs/api.md "Errors";
 * docs/decisions.md "D14. Error bodies and codes"). */
import { z } from '../zod.js';

/** Stable error codes shared by both APIs. */
export const ErrorCode = z.enum([
  'INVALID_QUERY',
  'INVALID_BODY',
  'UNSUPPORTED_ROUTE',
  'MISSING_PRICE_DATA',
  'INVALID_NAME',
  'INVALID_CURSOR',
  'INVALID_SIGNATURE',
  'NONCE_EXPIRED',
  'ALREADY_BOUND',
  'NOT_BOUND',
  'INVALID_USERNAME',
  'USERNAME_TAKEN',
  'LAST_WALLET',
  'AUTHORIZATION_REQUIRED',
  'NOT_AUTHORIZED',
  'RATE_LIMITED',
  'NOT_FOUND',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'SERVICE_UNAVAILABLE',
  'DEPENDENCY_UNAVAILABLE',
  'BAD_REQUEST',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Media type of every error body. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An error response body (RFC 9457 section 3) plus `code`. */
export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    code: ErrorCode,
  })
  .openapi('ProblemDetails');
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/**
 * Builds a problem body. `type` is a stable URN per code so clients can switch on either.
 *
 * @example problem(400, 'INVALID_QUERY', 'localDomain: must be a decimal uint32')
 */
export function problem(
  status: number,
  code: ErrorCode,
  detail: string,
  title?: string,
): ProblemDetails {
  return {
    type: `urn:ctss:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title:
      title ??
      code
        .replaceAll('_', ' ')
        .toLowerCase()
        .replace(/^./, (c) => c.toUpperCase()),
    status,
    detail,
    code,
  };
}
