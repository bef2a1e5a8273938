/**
 * Parsed-query reuse for the quote endpoints: the query object is a pure function of the URL's
 * query string, and zod's parse of it a pure function of that object, so a parse done for one
 * query string is reused for the next request with the same string (clients repeat a few routes).
 * Validation is unchanged: every string is parsed by the schema once, failures are never cached
 * (each bad request is parsed and answered 400 INVALID_QUERY as before).
 */
import { parseQuery } from '@ctss/server-kit';
import type { Request } from 'express';
import type { z } from 'zod';
import { LruCache } from './lru.js';

/** Query strings longer than this are parsed every time (keeps the cache small). */
const MAX_CACHED_QUERY_LENGTH = 256;

/**
 * Builds a parser of `req.query` with `schema` that reuses the frozen result for a query string
 * seen recently (`capacity` strings, least recently used evicted).
 * @throws HttpProblem 400 INVALID_QUERY (from server-kit parseQuery) naming the bad fields.
 */
export function cachedQueryParser<S extends z.ZodType>(
  schema: S,
  capacity = 512,
): (req: Request) => Readonly<z.output<S>> {
  const cache = new LruCache<string, Readonly<z.output<S>>>(capacity);
  return (req) => {
    const url = req.url;
    const at = url.indexOf('?');
    const raw = at < 0 ? '' : url.slice(at + 1);
    if (raw.length > MAX_CACHED_QUERY_LENGTH) return parseQuery(schema, req.query);
    const hit = cache.get(raw);
    if (hit !== undefined) return hit;
    const parsed = Object.freeze(parseQuery(schema, req.query)) as Readonly<z.output<S>>;
    cache.set(raw, parsed);
    return parsed;
  };
}
