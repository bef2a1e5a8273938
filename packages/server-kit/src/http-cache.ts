/**
 * Conditional GET for JSON answers (docs/api.md "Compression and HTTP caching"; RFC 9110
 * sections 8.8.3 and 13.1.2, RFC 9111 section 5.2): a strong `ETag` over the exact body bytes, a
 * `Cache-Control` chosen by the route, and `If-None-Match` answered with `304 Not Modified` and no
 * body. The tag is a SHA-1 digest of the identity body; when the response is compressed the
 * compression middleware appends the coding (compression.ts), so a client holding
 * `"<digest>-br"` matches the same body sent with brotli again.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import { CONTENT_CODINGS, codingTag, type StoredCoding } from './compression.js';
import { sendJsonText } from './json.js';

/**
 * The strong entity tag of `body` (a string hashed as UTF-8, or its bytes):
 * `"<27 base64url characters of its SHA-1>"`.
 */
export function strongEtag(body: string | Buffer): string {
  const hash = createHash('sha1');
  if (typeof body === 'string') hash.update(body, 'utf8');
  else hash.update(body);
  return `"${hash.digest('base64url')}"`;
}

/**
 * The tag of the representation the client's `If-None-Match` names, or undefined when none of
 * its tags matches `tag` in any coding (weak comparison, RFC 9110 section 13.1.2; `*` matches).
 * Evaluated with `fresh` (jshttp, the test express uses), over `If-None-Match` and the request's
 * `Cache-Control` only (`no-cache` asks for a full answer).
 */
function matchedTag(req: Request, tag: string): string | undefined {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch === undefined) return undefined;
  const headers = { 'if-none-match': ifNoneMatch, 'cache-control': req.headers['cache-control'] };
  const candidates = [tag, ...CONTENT_CODINGS.map((coding) => codingTag(tag, coding))];
  return candidates.find((candidate) => fresh(headers, { etag: candidate }));
}

/**
 * What a caller kept with a body: its strong ETag (of the identity bytes, {@link strongEtag}) and,
 * when the body is a kept compressed copy (compression.ts `negotiatedCoding`), the coding it is
 * compressed with. A compressed body always comes with the tag of its identity bytes: hashing the
 * compressed bytes would give each coding its own tag and break the `-<coding>` suffix scheme.
 */
export interface KeptRepresentation {
  /** The identity body's {@link strongEtag}. */
  readonly etag: string;
  /** The coding the body is compressed with, if it is a kept compressed copy. */
  readonly coding?: StoredCoding;
}

/**
 * Sends `body` (JSON text) with status 200, `Cache-Control: cacheControl`, a strong `ETag` and
 * `Vary: Accept-Encoding`, or `304 Not Modified` with the same validators and no body when the
 * request's `If-None-Match` names this body (in whichever coding the client received it).
 *
 * @param cacheControl the `Cache-Control` value, e.g. `public, max-age=60`.
 * @param kept the body's tag (and coding) when the caller kept them with it; without it the body
 *   is identity JSON text and its tag is computed here. A compressed body is sent as it is with
 *   `Content-Encoding`, the tag (of the identity body) renamed after the coding by the
 *   compression middleware as for any compressed answer.
 */
export function sendCacheableJson(
  req: Request,
  res: Response,
  body: string | Buffer,
  cacheControl: string,
  kept?: KeptRepresentation,
): void {
  const tag = kept?.etag ?? strongEtag(body);
  res.setHeader('Cache-Control', cacheControl);
  res.vary('Accept-Encoding');
  const matched = matchedTag(req, tag);
  if (matched !== undefined) {
    res.setHeader('ETag', matched);
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('ETag', tag);
  if (kept?.coding !== undefined) res.setHeader('Content-Encoding', kept.coding);
  sendJsonText(res, 200, body);
}
