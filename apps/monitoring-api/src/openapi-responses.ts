/**
 * Response entries and the GET registration shared by the features' OpenAPI registrations
 * (`<feature>/openapi.ts`, assembled by openapi.ts): every status a route can answer, with the
 * problem `code`s of each (docs/api.md "Errors").
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from '@ctss/domain-types';
import type { ZodObject, ZodType } from 'zod';

/** A problem details response (RFC 9457) described by `description` (which names its codes). */
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

/** The 429 answer of the rate limiter (every route but the probes; docs/api.md "Rate limits"). */
export const rateLimited = {
  429: problemResponse(
    'RATE_LIMITED: the client exceeded its requests per minute; Retry-After says when to retry',
  ),
};

/** The 503 of a route that reads the database or the shared store. */
export const dependencyUnavailable = {
  503: problemResponse(
    'DEPENDENCY_UNAVAILABLE: a backend the request needs (PostgreSQL, Redis) is unreachable or too slow; Retry-After says when to retry',
  ),
};

/** The 400 of a route whose parameters are only validated. */
export const invalidQuery = {
  400: problemResponse(
    'INVALID_QUERY: a parameter is missing, malformed, out of range, repeated or unknown',
  ),
};

/** Options of {@link registerGet}. */
export interface GetOptions {
  /** The query parameters (a strict zod object); none when the route takes no parameters. */
  readonly query?: ZodObject;
  /** Answers 304 to a matching If-None-Match (an ETag route); default true. */
  readonly conditional?: boolean;
  /** Responses beyond 200, 304, 400 INVALID_QUERY, 429 and 503 DEPENDENCY_UNAVAILABLE. */
  readonly responses?: Record<number, ReturnType<typeof problemResponse>>;
}

/**
 * Registers `GET path` as `operationId`, answering 200 with `response` (JSON), 304 when
 * conditional (If-None-Match named the current ETag), 400 INVALID_QUERY, 429 RATE_LIMITED, 503
 * DEPENDENCY_UNAVAILABLE and `options.responses`.
 */
export function registerGet(
  registry: OpenAPIRegistry,
  path: string,
  operationId: string,
  summary: string,
  response: ZodType,
  options: GetOptions = {},
): void {
  registry.registerPath({
    method: 'get',
    path,
    operationId,
    summary,
    ...(options.query ? { request: { query: options.query } } : {}),
    responses: {
      200: jsonResponse('OK', response),
      ...((options.conditional ?? true) ? notModified : {}),
      ...invalidQuery,
      ...rateLimited,
      ...dependencyUnavailable,
      ...options.responses,
    },
  });
}
