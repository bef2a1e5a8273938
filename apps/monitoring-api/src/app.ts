/**
 * The app factory (DESIGN.md "Shape"): every route of the Monitoring API over the dependencies
 * given, with helmet, CORS, request logs, metrics and rate limiting from server-kit. `main.ts`
 * only builds the dependencies and listens.
 */
import { createHttpApp, finishHttpApp, serveOpenApi } from '@ctss/server-kit';
import type { Express } from 'express';
import type { AppDeps } from './deps.js';
import { createHealthRouter } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { createStatsRouter } from './stats/router.js';
import { createTransactionsRouter } from './transactions/router.js';
import { registerUsersOpenApi } from './users/openapi.js';
import { createUsersRouter } from './users/router.js';

/** Builds the express app; it holds no resources of its own (closing is the caller's job). */
export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const app = createHttpApp({
    logger: deps.logger,
    metrics: deps.metrics,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    rateLimit: {
      limit: config.RATE_LIMIT_PER_MINUTE,
      windowSeconds: 60,
      redis: deps.kv.redis,
      prefix: `${config.REDIS_PREFIX}rl:`,
      apiKeys: new Set(config.API_KEYS),
      apiKeyLimit: config.RATE_LIMIT_API_KEY_PER_MINUTE,
    },
  });
  app.use(createHealthRouter(deps));
  serveOpenApi(app, buildOpenApiDocument([registerUsersOpenApi]));
  app.use(createTransactionsRouter(deps));
  app.use(createStatsRouter(deps));
  app.use('/users', createUsersRouter(deps));
  return finishHttpApp(app, deps.logger);
}
