/**
 * The express app both services start from: security headers, CORS, request logs, metrics,
 * rate limiting and a small JSON body parser, run as one middleware chain; `finishHttpApp` adds the 404 and problem handlers
 * after the routes, so every error leaves through one path.
 */
import express, { type Express } from 'express';
import cors, { type CorsOptions } from 'cors';
import helmet from 'helmet';
import typeis from 'type-is';
import { compressionMiddleware } from './compression.js';
import type { Logger } from './logger.js';
import { httpMetricsMiddleware, markUnmatched, metricsHandler, type Metrics } from './metrics.js';
import { chainMiddleware } from './middleware-chain.js';
import { notFoundHandler, problemHandler, type ProblemClassifier } from './problem.js';
import { createRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { requestLogMiddleware } from './request-log.js';

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Allowed browser origins; `['*']` allows any (the APIs are public and unauthenticated). */
  corsOrigins: readonly string[];
  /** Rate limit settings, or a limiter built by the caller (to share it with WebSocket upgrades). */
  rateLimit: RateLimitOptions | RateLimiter;
  /** express `trust proxy` setting: hops or CIDR list; false when clients connect directly. */
  trustProxy: boolean | number | string;
  /** Largest JSON body accepted (default `16kb`). */
  bodyLimit?: string;
  /**
   * Serve `GET /metrics` on this app (default true), rate limited like any path; false when a
   * separate METRICS_PORT server serves it (`startMetricsServer`).
   */
  serveMetrics?: boolean;
  /**
   * Compress answers of 1 KiB and more with gzip or brotli as `Accept-Encoding` asks (default
   * false; compression.ts). Off where the ingress compresses.
   */
  compression?: boolean;
}

/**
 * The CORS settings of both APIs (the `cors` package's options): `origins` `['*']` allows any
 * origin (the APIs are public and unauthenticated), else exactly those; GET, POST and preflight;
 * the request headers the clients send; the rate-limit headers, `Cache-Status` (RFC 9211: a stale statistic) and `ETag` exposed to browser
 * code (docs/api.md "Errors"); preflight answers cached 600 s.
 */
export function corsOptions(origins: readonly string[]): CorsOptions {
  return {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'X-API-Key', 'If-None-Match'],
    exposedHeaders: [
      'RateLimit',
      'RateLimit-Policy',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'Retry-After',
      'Cache-Status',
      'ETag',
    ],
    maxAge: 600,
  };
}

/** Creates the base app; mount routes on it, then call {@link finishHttpApp}. */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag on every `res.send` body: routes whose answers clients may keep set their own
  // (http-cache.ts sendCacheableJson, which also answers If-None-Match).
  app.set('etag', false);
  app.set('trust proxy', opts.trustProxy);
  app.set('query parser', 'simple');
  const json = express.json({ limit: opts.bodyLimit ?? '16kb' });
  app.use(
    chainMiddleware([
      helmet(),
      cors(corsOptions(opts.corsOrigins)),
      requestLogMiddleware(opts.logger),
      httpMetricsMiddleware(opts.metrics),
      ...(opts.compression ? [compressionMiddleware()] : []),
      // Probes are never limited; /metrics is, when it is served on the public port.
      typeof opts.rateLimit === 'function'
        ? opts.rateLimit
        : createRateLimiter(opts.rateLimit, { logger: opts.logger, metrics: opts.metrics }),
      // Only a request with a body goes through the parser (type-is's test: Transfer-Encoding or
      // a numeric Content-Length); a GET without one skips its per-request checks.
      (req, res, next) => (typeis.hasBody(req) ? json(req, res, next) : next()),
    ]),
  );
  // After the chain, so scrapes get the same headers and count against the rate limit.
  if (opts.serveMetrics ?? true) app.get('/metrics', metricsHandler(opts.metrics.registry));
  return app;
}

/** Options of {@link finishHttpApp}. */
export interface FinishHttpAppOptions {
  /** The app's own error mapping, tried before the built-in one (see {@link ProblemClassifier}). */
  classifyError?: ProblemClassifier;
}

/**
 * Adds the 404 handler and the problem-details error handler; call after mounting routes.
 * `options.classifyError` maps the app's own errors (e.g. "database unavailable" to 503).
 */
export function finishHttpApp(
  app: Express,
  logger: Logger,
  options: FinishHttpAppOptions = {},
): Express {
  app.use(markUnmatched(), notFoundHandler());
  app.use(problemHandler(logger, options.classifyError));
  return app;
}
