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
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { RequestHandler } from 'express';
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
