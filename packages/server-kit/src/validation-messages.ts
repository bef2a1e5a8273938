/**
 * The `detail` texts of 400 INVALID_QUERY / INVALID_BODY problems (docs/api.md "Errors", "Query
 * parameters"), written in one place: each names the parameter (or body field) and what it
 * accepts, never the validation library's own wording ("Invalid input: expected string, received
 * array"). A message a schema gives itself (`.regex(re, 'must be a positive integer')`) is kept:
 * zod prefers a schema's own message over the per-parse error map used here (zod 4 "Customizing
 * errors": error precedence).
 */
import type { z } from 'zod';

/** Where the validated values come from: the query string (or path) or a JSON body. */
export type ValidationSource = 'query' | 'body';

/** Longest description quoted in a detail, so a long parameter description stays readable. */
const MAX_ACCEPTS_LENGTH = 160;

/** Most issues listed in one detail (docs/api.md "Errors": at most five). */
const MAX_ISSUES = 5;

/** A schema that may list its fields (a zod object, also after `.refine`). */
type Shaped = { readonly shape?: Record<string, { readonly description?: string } | undefined> };

/**
 * What the field `key` of `schema` accepts, from its description (the `.openapi()` /
 * `.meta()` text the OpenAPI documents show), first letter lower-cased and without a final
 * full stop; undefined when the field has none.
 */
function acceptsOf(schema: z.ZodType, key: PropertyKey | undefined): string | undefined {
  if (typeof key !== 'string') return undefined;
  const text = (schema as Shaped).shape?.[key]?.description?.trim().replace(/\.$/, '');
  if (!text) return undefined;
  const cut = text.length > MAX_ACCEPTS_LENGTH ? `${text.slice(0, MAX_ACCEPTS_LENGTH)}...` : text;
  return cut.charAt(0).toLowerCase() + cut.slice(1);
}

/** `message`, followed by what the field accepts when its schema says so. */
const withAccepts = (message: string, accepts: string | undefined) =>
  accepts ? `${message} (${accepts})` : message;

/** The plain words for a zod value type (`expected` of an invalid_type issue). */
function typeWords(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
    case 'int':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'a JSON object';
    case 'array':
      return 'a list';
    default:
      return `of type ${expected}`;
  }
}

/** The unit a size bound counts, by the issue's `origin` (string, array, number, ...). */
const sizeUnit = (origin: unknown) =>
  origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' entries' : '';

/**
 * The zod error map for request validation (zod 4 `safeParse(data, { error })`): a message for
 * every issue whose schema gave none. The issue kinds, per zod 4's `$ZodRawIssue`:
 * - a repeated query parameter arrives as an array (express "simple" parser): "must be given once";
 * - a missing required field: "is required";
 * - an enum or literal mismatch: "must be one of a, b";
 * - size bounds: "must be at least / at most N [characters|entries]", "must not be empty";
 * - unknown fields: "unknown parameter: x" / "unknown field: x" (written by
 *   {@link describeValidationError}, which puts no path before it).
 * Each one adds the field's description (what it accepts) where the schema has one.
 */
export function validationErrorMap(source: ValidationSource, schema: z.ZodType) {
  return (issue: z.core.$ZodRawIssue): string => {
    const accepts = acceptsOf(schema, issue.path?.[0]);
    const input = issue.input;
    switch (issue.code) {
      case 'invalid_type':
        if (input === undefined) return withAccepts('is required', accepts);
        if (source === 'query' && Array.isArray(input) && issue.expected !== 'array') {
          return withAccepts(`must be given once, not ${input.length} times`, accepts);
        }
        return withAccepts(`must be ${typeWords(issue.expected)}`, accepts);
      case 'invalid_value':
        if (input === undefined) return withAccepts('is required', accepts);
        if (source === 'query' && Array.isArray(input)) {
          return withAccepts(`must be given once, not ${input.length} times`, accepts);
        }
        return `must be ${issue.values.length > 1 ? 'one of ' : ''}${issue.values.map(String).join(', ')}`;
      case 'too_small':
        if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
        return `must be at least ${String(issue.minimum)}${sizeUnit(issue.origin)}`;
      case 'too_big':
        return `must be at most ${String(issue.maximum)}${sizeUnit(issue.origin)}`;
      case 'not_multiple_of':
        return `must be a multiple of ${String(issue.divisor)}`;
      case 'invalid_format':
        return withAccepts(
          `is not a valid ${issue.format === 'regex' ? 'value' : issue.format}`,
          accepts,
        );
      case 'unrecognized_keys':
        return `unknown ${source === 'query' ? 'parameter' : 'field'}${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      case 'invalid_union':
      case 'invalid_key':
      case 'invalid_element':
        return withAccepts('is not an accepted value', accepts);
      default:
        return withAccepts('is invalid', accepts);
    }
  };
}

/**
 * A problem `detail` from the issues of a failed parse (made with {@link validationErrorMap}):
 * `field: message; field: message`, at most five, the field path joined with `.` (`value` for
 * the whole input); unknown fields are written without a path (`unknown parameter: sender`).
 */
export function describeValidationError(error: z.ZodError): string {
  return error.issues
    .slice(0, MAX_ISSUES)
    .map((i) =>
      i.code === 'unrecognized_keys' && i.path.length === 0
        ? i.message
        : `${i.path.length ? i.path.join('.') : 'value'}: ${i.message}`,
    )
    .join('; ');
}
