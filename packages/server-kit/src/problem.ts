/**
 * One path from error to response: every error thrown or passed to `next` becomes an RFC 9457
 * problem details body (`application/problem+json`) with a stable `code` (docs/api.md "Errors";
 * docs/decisions.md "D14. Error bodies and codes").
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  PROBLEM_CONTENT_TYPE,
  problem,
  type ErrorCode,
  type ProblemDetails,
} from '@ctss/domain-types';
import type { Logger } from './logger.js';

/** An error that maps to a problem response: `status` 4xx/5xx, stable `code`, client-safe `detail`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  /** The response body of this error. */
  toBody(): ProblemDetails {
    return problem(this.status, this.code, this.detail);
  }
}

/**
 * A backend the request needs (Redis, PostgreSQL) is unreachable or too slow: 503
 * DEPENDENCY_UNAVAILABLE with `Retry-After`, so clients and load balancers retry instead of
 * treating it as a bug. `dependency` names the backend in the detail (never its URL).
 */
export class DependencyUnavailableError extends HttpProblem {
  constructor(
    readonly dependency: string,
    retryAfterSeconds = 1,
  ) {
    super(503, 'DEPENDENCY_UNAVAILABLE', `${dependency} is unavailable; retry shortly`, {
      'Retry-After': String(retryAfterSeconds),
    });
    this.name = 'DependencyUnavailableError';
  }
}

/** Writes a problem body with its status, content type and any extra headers. */
export function sendProblem(res: Parameters<RequestHandler>[1], error: HttpProblem): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(error.toBody()));
}

/**
 * Error codes of node:zlib when a body does not decompress as its `Content-Encoding` says (plain
 * bytes sent as gzip, truncated deflate: `Z_*`; bad brotli: `ERR__ERROR_*`, the decoder's error
 * name; zstd where Node has it: `ZSTD_error*`): body-parser passes them on as status 400
 * without a `type` (body-parser 2 `read`).
 */
const DECOMPRESSION_ERROR = /^(Z_|ERR__ERROR_|ERR_BROTLI|ERR_ZSTD|ERR_ZLIB|ZSTD_error)/;

/**
 * Errors body-parser raises carry `type` and `status` (body-parser README "Errors"); map the
 * client-caused ones to 4xx: bad JSON, bad length, undecodable content encoding or charset.
 */
function fromBodyParser(err: {
  type?: unknown;
  status?: unknown;
  code?: unknown;
}): HttpProblem | undefined {
  if (err.status === 400 && typeof err.code === 'string' && DECOMPRESSION_ERROR.test(err.code)) {
    return new HttpProblem(400, 'INVALID_BODY', 'request body does not match its Content-Encoding');
  }
  switch (err.type) {
    case 'request.size.invalid':
      return new HttpProblem(
        400,
        'INVALID_BODY',
        'request body length does not match Content-Length',
      );
    case 'request.aborted':
      return new HttpProblem(400, 'INVALID_BODY', 'request body was not received completely');
    case 'entity.parse.failed':
      return new HttpProblem(400, 'INVALID_BODY', 'request body is not valid JSON');
    case 'entity.too.large':
      return new HttpProblem(413, 'PAYLOAD_TOO_LARGE', 'request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpProblem(415, 'UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding');
    default:
      return undefined;
  }
}

/**
 * An app's own mapping of errors server-kit cannot know (a database driver's errors, say) to a
 * problem; `undefined` leaves the error to the built-in mapping. It must not throw. Given to
 * {@link toHttpProblem}, {@link problemHandler} and `finishHttpApp`, so the app keeps one error
 * path instead of try/catch in each route.
 */
export type ProblemClassifier = (err: unknown) => HttpProblem | undefined;

/**
 * Turns any error into an HttpProblem: an HttpProblem as is, then `classify` (the app's own
 * errors), then body-parser errors; anything else becomes a 500 INTERNAL without internals. A
 * client's input is checked by `parseQuery` / `parseBody`, which throw 400 problems themselves: a
 * bare `ZodError` reaching this point failed on data of our own (a stored row, a response), so it
 * is a 500 like any other fault, never a 400 naming internal field paths.
 */
export function toHttpProblem(err: unknown, classify?: ProblemClassifier): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const classified = classify?.(err);
  if (classified) return classified;
  // A path parameter that is not valid percent-encoding (the router's decodeParam marks it 400).
  if (err instanceof URIError && (err as { status?: unknown }).status === 400) {
    return new HttpProblem(400, 'BAD_REQUEST', 'path: not valid percent-encoded UTF-8');
  }
  if (typeof err === 'object' && err !== null) {
    const mapped = fromBodyParser(err);
    if (mapped) return mapped;
  }
  return new HttpProblem(500, 'INTERNAL', 'internal error');
}

/**
 * Final express error handler: maps the error with {@link toHttpProblem} (and `classify`, when
 * given), logs 5xx with the cause (a 503 DEPENDENCY_UNAVAILABLE only at debug level: an outage is
 * logged once where it is detected, not once per request), answers with a problem body.
 */
export function problemHandler(logger: Logger, classify?: ProblemClassifier): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const problemError = toHttpProblem(err, classify);
    if (problemError.code === 'DEPENDENCY_UNAVAILABLE') {
      logger.debug({ err, method: req.method, url: req.originalUrl }, problemError.detail);
    } else if (problemError.status >= 500) {
      logger.error({ err, method: req.method, url: req.originalUrl }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, problemError);
  };
}

/** Handler for unmatched routes: 404 NOT_FOUND problem. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new HttpProblem(404, 'NOT_FOUND', `no route for ${req.method} ${req.path}`));
  };
}
