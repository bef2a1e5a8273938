/**
 * The express app both services start from: security headers, CORS, request logs, metrics,
 * rate limiting and a small JSON body parser; `finishHttpApp` adds the 404 and problem handlers
 * after the routes, so every error leaves through one path.
 */
import express, { type Express } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Logger } from './logger.js';
import { httpMetricsMiddleware, metricsHandler, type Metrics } from './metrics.js';
import { notFoundHandler, problemHandler } from './problem.js';
import { createRateLimiter, type RateLimitOptions } from './rate-limit.js';
import { requestLogMiddleware } from './request-log.js';

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Allowed browser origins; `['*']` allows any (the APIs are public and unauthenticated). */
  corsOrigins: readonly string[];
  rateLimit: RateLimitOptions;
  /** express `trust proxy` setting: hops or CIDR list; false when clients connect directly. */
  trustProxy: boolean | number | string;
  /** Largest JSON body accepted (default `16kb`). */
  bodyLimit?: string;
}

/** Creates the base app; mount routes on it, then call {@link finishHttpApp}. */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // JSON APIs whose answers change every second gain nothing from a SHA-1 ETag of every body.
  app.set('etag', false);
  app.set('trust proxy', opts.trustProxy);
  app.set('query parser', 'simple');
  app.use(helmet());
  const anyOrigin = opts.corsOrigins.includes('*');
  app.use(
    cors({
      origin: anyOrigin ? '*' : [...opts.corsOrigins],
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['Content-Type', 'X-API-Key'],
      exposedHeaders: [
        'RateLimit',
        'RateLimit-Policy',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'Retry-After',
      ],
      maxAge: 600,
    }),
  );
  app.use(requestLogMiddleware(opts.logger));
  app.use(httpMetricsMiddleware(opts.metrics));
  app.get('/metrics', metricsHandler(opts.metrics.registry));
  app.use(createRateLimiter(opts.rateLimit));
  app.use(express.json({ limit: opts.bodyLimit ?? '16kb' }));
  return app;
}

/** Adds the 404 handler and the problem-details error handler; call after mounting routes. */
export function finishHttpApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler());
  app.use(problemHandler(logger));
  return app;
}
