/** Response entries shared by the OpenAPI registrations of the Monitoring API (openapi.ts). */
import { ProblemDetails } from '@ctss/domain-types';

/** A problem details response (RFC 9457) described by `description`. */
export const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
});

/** The 304 answer of a conditional GET (docs/api.md "Compression and HTTP caching"). */
export const notModified = {
  304: { description: 'Not Modified: If-None-Match named the current ETag (no body)' },
};

/** The 429 answer of the rate limiter. */
export const rateLimited = {
  429: problemResponse('Rate limited (RATE_LIMITED), with Retry-After'),
};
