/**
 * OpenAPI responses shared by the endpoints' documents: a JSON body of a zod schema, and the
 * RFC 9457 problem bodies (docs/api.md "Errors") of the errors the endpoints can answer, each
 * naming its `code`s.
 */
import { ProblemDetails, type z } from '@ctss/domain-types';

/** A response with a JSON body (`application/json`) described by `schema`. */
export function jsonResponse<S extends z.ZodType>(
  description: string,
  schema: S,
): { description: string; content: { 'application/json': { schema: S } } } {
  return { description, content: { 'application/json': { schema } } };
}

/** The content of a problem response (`application/problem+json`). */
const problemContent = { 'application/problem+json': { schema: ProblemDetails } };

/** A problem response (RFC 9457) described by `description` (which names its codes). */
export const problemResponse = (description: string) => ({ description, content: problemContent });

/** The 429 of every rate-limited route (docs/api.md "Rate limits"). */
export const rateLimited = {
  429: problemResponse(
    'RATE_LIMITED: the client exceeded its requests per minute; Retry-After says when to retry',
  ),
};

/** The 400 of a route whose query is only validated (INVALID_QUERY). */
export const invalidQuery = {
  400: problemResponse(
    'INVALID_QUERY: a parameter is missing, malformed, out of range, repeated or unknown',
  ),
};

/** The 400, 429 and 500 responses of the quote endpoints. */
export const problemResponses = {
  400: problemResponse(
    'INVALID_QUERY (a parameter missing, malformed, repeated or unknown) or UNSUPPORTED_ROUTE (unknown domain, local = destination, no CCTP route for that version, wrong signature scheme for the origin)',
  ),
  ...rateLimited,
  500: problemResponse(
    'MISSING_PRICE_DATA (a gas or price entry missing or older than PRICE_MAX_AGE_SECONDS; Retry-After: 5; nothing is signed) or INTERNAL',
  ),
};
