/**
 * OpenAPI responses shared by the endpoints' documents: a JSON body of a zod schema, and the
 * RFC 9457 problem bodies (docs/api.md "Errors") for the errors every quote and price endpoint
 * can answer.
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
export const problemContent = { 'application/problem+json': { schema: ProblemDetails } };

/** The 400, 429 and 500 responses of the quote and price endpoints. */
export const problemResponses = {
  400: {
    description:
      'Missing or invalid query parameter (INVALID_QUERY) or unsupported route (UNSUPPORTED_ROUTE)',
    content: problemContent,
  },
  429: { description: 'Rate limited (RATE_LIMITED); see Retry-After', content: problemContent },
  500: {
    description: 'Price or gas data missing or stale (MISSING_PRICE_DATA), or internal error',
    content: problemContent,
  },
};
