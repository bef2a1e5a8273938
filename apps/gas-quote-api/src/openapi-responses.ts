/**
 * OpenAPI responses shared by the endpoints' documents: RFC 9457 problem bodies (docs/api.md
 * "Errors") for the errors every quote and price endpoint can answer.
 */
import { ProblemDetails } from '@ctss/domain-types';

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
