/** Boundary validation: request data is parsed with the same zod schemas that give the types. */
import type { z } from 'zod';
import { HttpProblem, describeZodError } from './problem.js';

/**
 * Parses a query object. Repeated parameters (`?a=1&a=2`) arrive as arrays and fail schemas that
 * expect strings, which is the intended 400.
 *
 * @throws HttpProblem 400 INVALID_QUERY naming the first bad fields.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw new HttpProblem(400, 'INVALID_QUERY', describeZodError(result.error));
  return result.data;
}

/**
 * Parses a JSON body.
 *
 * @throws HttpProblem 400 INVALID_BODY naming the first bad fields (or a missing body).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object') {
    throw new HttpProblem(400, 'INVALID_BODY', 'a JSON object body is required');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw new HttpProblem(400, 'INVALID_BODY', describeZodError(result.error));
  return result.data;
}
