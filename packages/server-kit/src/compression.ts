/**
 * Response compression (docs/api.md "Compression and HTTP caching"): gzip or brotli, negotiated
 * from `Accept-Encoding` by the `compression` package (expressjs, brotli since 1.8), for JSON and
 * text bodies of at least {@link COMPRESSION_THRESHOLD_BYTES}; smaller bodies, `HEAD` requests and
 * responses with `Cache-Control: no-transform` go out as they are. Every compressible response
 * carries `Vary: Accept-Encoding`, so shared caches keep one copy per coding.
 *
 * A strong `ETag` names one representation (RFC 9110 section 8.8.3.3: the gzip and the identity
 * body of one resource are different representations), so the coding applied is appended to a
 * strong tag: `"<digest>"` becomes `"<digest>-gzip"` or `"<digest>-br"` ({@link codingTag}).
 *
 * A route that keeps a body that can no longer change may keep its compressed form too and send it
 * as it is ({@link negotiatedCoding}, {@link compressBody}): the middleware leaves a response that
 * already has a `Content-Encoding` alone and still renames its tag.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';
import Negotiator from 'negotiator';
import onHeaders from 'on-headers';

/** Bodies below this many bytes are sent uncompressed (the frame overhead outweighs the gain). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** The content codings the middleware may apply, each the suffix it adds to a strong ETag. */
export const CONTENT_CODINGS = ['gzip', 'br', 'deflate'] as const;

/**
 * The strong entity tag `tag` (`"<opaque>"`) of the representation encoded with `coding`:
 * `"<opaque>-<coding>"`. Weak tags (`W/"..."`) are returned unchanged: they already allow any
 * semantically equivalent body (RFC 9110 section 8.8.1).
 */
export function codingTag(tag: string, coding: string): string {
  if (!tag.startsWith('"') || !tag.endsWith('"')) return tag;
  return `${tag.slice(0, -1)}-${coding}"`;
}

/**
 * The codings the compression package offers, and those it prefers between equally acceptable
 * ones (compression 1.8 `index.js`, `SUPPORTED_ENCODING` and `PREFERRED_ENCODING`, with brotli).
 */
const OFFERED_CODINGS = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED_CODINGS = ['br', 'gzip'];

/** A coding a body may be kept in ahead of its requests ({@link compressBody}). */
export type StoredCoding = 'br' | 'gzip';

/** Requests the middleware saw with an `Accept-Encoding` (it negotiates a coding for them). */
const negotiating = new WeakSet<IncomingMessage>();

/**
 * The coding the compression middleware applies to `req`'s answer (when the body reaches
 * {@link COMPRESSION_THRESHOLD_BYTES}), if it is one a body may be kept in: negotiated from
 * `Accept-Encoding` with the package's own negotiator (negotiator 0.6, the version compression
 * 1.8 depends on) and lists, so brotli wins a tie. Undefined when the middleware is not installed
 * (`compression` false), the request has no `Accept-Encoding` or is a `HEAD`, or the choice is
 * `deflate` or `identity`: the middleware then decides as before.
 */
export function negotiatedCoding(req: IncomingMessage): StoredCoding | undefined {
  if (!negotiating.has(req) || req.method === 'HEAD') return undefined;
  const coding = new Negotiator(req).encoding(OFFERED_CODINGS, PREFERRED_CODINGS);
  return coding === 'br' || coding === 'gzip' ? coding : undefined;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * `body` (UTF-8 text or its bytes) compressed with `coding` as the middleware compresses it: gzip
 * at zlib's default level (6), brotli at quality 4 (compression 1.8's default), on libuv's thread
 * pool.
 *
 * @throws Error from zlib (not expected for a body in memory)
 */
export function compressBody(body: string | Buffer, coding: StoredCoding): Promise<Buffer> {
  const input = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (coding === 'gzip') return gzipAsync(input);
  return brotliAsync(input, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 },
  });
}

/**
 * The compression middleware: `compression` with its defaults (gzip level 6, brotli quality 4)
 * and a {@link COMPRESSION_THRESHOLD_BYTES} threshold, preceded by a hook that renames a strong
 * `ETag` after the coding chosen. on-headers runs listeners in reverse order of registration, so
 * the hook, registered first, sees the `Content-Encoding` compression has just set.
 */
export function compressionMiddleware(): RequestHandler {
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES });
  return (req, res, next) => {
    // Without Accept-Encoding the library sends the identity body anyway; skipping its response
    // wrappers then saves their cost on every such request (docs/decisions.md "D59. Response
    // compression"). The Vary it would have added is set here, so caches still key on the header.
    if (req.headers['accept-encoding'] === undefined) {
      res.vary('Accept-Encoding');
      next();
      return;
    }
    negotiating.add(req);
    onHeaders(res, function renameTag(this: ServerResponse<IncomingMessage>) {
      const coding = this.getHeader('Content-Encoding');
      const tag = this.getHeader('ETag');
      if (typeof coding === 'string' && coding !== 'identity' && typeof tag === 'string') {
        this.setHeader('ETag', codingTag(tag, coding));
      }
    });
    compress(req, res, next);
  };
}
