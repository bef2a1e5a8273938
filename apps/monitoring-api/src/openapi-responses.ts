/**
 * Response entries and the GET registration shared by the features' OpenAPI registrations
 * (`<feature>/openapi.ts`, assembled by openapi.ts).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from '@ctss/domain-types';
import type { ZodObject, ZodType } from 'zod';

/** A problem details response (RFC 9457) described by `description`. */
export const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
});

/** A JSON response described by `description` whose body `schema` describes. */
export const jsonResponse = (description: string, schema: ZodType) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The 304 answer of a conditional GET (docs/api.md "Compression and HTTP caching"). */
export const notModified = {
  304: { description: 'Not Modified: If-None-Match named the current ETag (no body)' },
};

/** The 429 answer of the rate limiter. */
export const rateLimited = {
  429: problemResponse('Rate limited (RATE_LIMITED), with Retry-After'),
};

/** The client errors of a query endpoint: a bad query (400) and the rate limit (429). */
const queryProblems = {
  400: problemResponse('Invalid query (INVALID_QUERY, INVALID_CURSOR, INVALID_NAME)'),
  ...rateLimited,
};

/**
 * Registers `GET path` answering 200 with `response` (JSON), 304 when `conditional` (If-None-Match
 * named the current ETag), 400 and 429; `query` is its parameter list.
 */
export function registerGet(
  registry: OpenAPIRegistry,
  path: string,
  summary: string,
  response: ZodType,
  query?: ZodObject,
  conditional = true,
): void {
  registry.registerPath({
    method: 'get',
    path,
    summary,
    ...(query ? { request: { query } } : {}),
    responses: {
      200: jsonResponse('OK', response),
      ...(conditional ? notModified : {}),
      ...queryProblems,
    },
  });
}
