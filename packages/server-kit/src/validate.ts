/** Boundary validation: request data is parsed with the same zod schemas that give the types. */
import type { z } from 'zod';
import { HttpProblem } from './problem.js';
import { describeValidationError, validationErrorMap } from './validation-messages.js';

/**
 * A UTF-16 surrogate without its pair: it has no UTF-8 form, so the driver would silently send
 * U+FFFD instead and a lookup would compare another string.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` can be stored in and compared by PostgreSQL as sent: no U+0000 and no lone
 * surrogate (PostgreSQL docs "Character Types": the character with code zero cannot be stored;
 * RFC 3629 section 3: surrogates have no UTF-8 encoding).
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/**
 * The path (`a.0.b`, `value` for the root) of the first string, or object key, in `input` that is
 * not {@link isStorableText}; undefined when all are. Walks plain objects and arrays with an
 * explicit stack, so a deeply nested JSON body cannot exhaust the call stack.
 */
export function findUnstorableText(input: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value: input, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return path || 'value';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], path: path ? `${path}.${i}` : String(i) });
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        const at = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return path || 'value';
        stack.push({ value: (value as Record<string, unknown>)[key], path: at });
      }
    }
  }
  return undefined;
}

const UNSTORABLE_DETAIL = 'must not contain U+0000 or unpaired UTF-16 surrogates';

/** `path: rule` with the client-chosen path cut short, so a 100 kB key is not echoed back. */
const unstorableDetail = (path: string) =>
  `${path.length > 64 ? `${path.slice(0, 64)}...` : path}: ${UNSTORABLE_DETAIL}`;

/**
 * Parses a query object. Repeated parameters (`?a=1&a=2`) arrive as arrays and fail schemas that
 * expect strings, which is the intended 400. Any value or name holding text PostgreSQL cannot
 * store ({@link isStorableText}) is a 400 too, whatever the schema.
 *
 * @throws HttpProblem 400 INVALID_QUERY naming the first bad parameters and what they accept
 *   (validation-messages.ts).
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const unstorable = findUnstorableText(query);
  if (unstorable !== undefined) {
    throw new HttpProblem(400, 'INVALID_QUERY', unstorableDetail(unstorable));
  }
  const result = schema.safeParse(query ?? {}, { error: validationErrorMap('query', schema) });
  if (!result.success) {
    throw new HttpProblem(400, 'INVALID_QUERY', describeValidationError(result.error));
  }
  return result.data;
}

/**
 * Parses a JSON body. Any string or key holding text PostgreSQL cannot store
 * ({@link isStorableText}, e.g. `"\u0000"` or `"\ud800"` in the JSON) is a 400, whatever the schema.
 *
 * @throws HttpProblem 400 INVALID_BODY naming the first bad fields and what they accept
 *   (validation-messages.ts), or a missing body.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object') {
    throw new HttpProblem(400, 'INVALID_BODY', 'a JSON object body is required');
  }
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw new HttpProblem(400, 'INVALID_BODY', unstorableDetail(unstorable));
  }
  const result = schema.safeParse(body, { error: validationErrorMap('body', schema) });
  if (!result.success) {
    throw new HttpProblem(400, 'INVALID_BODY', describeValidationError(result.error));
  }
  return result.data;
}
