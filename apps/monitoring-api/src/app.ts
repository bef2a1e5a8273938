/**
 * The app factory (docs/architecture.md "Packages and what they own"): every route of the Monitoring API over the dependencies
 * given, with helmet, CORS, request logs, metrics and rate limiting from server-kit. `main.ts`
 * only builds the dependencies and listens.
 */
import {
  createHttpApp,
  finishHttpApp,
  mountRouter,
  rateLimitFromConfig,
  serveOpenApi,
} from '@ctss/server-kit';
import type { Express } from 'express';
import { classifyDatabaseError } from './db/unavailable.js';
import { createDefiLlamaRouter } from './defillama/router.js';
import type { AppDeps } from './deps.js';
import { createHealthRouter } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { createStatsRouter } from './stats/router.js';
import { addTransactionRoutes } from './transactions/router.js';
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
    serveMetrics: config.METRICS_PORT === undefined,
    rateLimit: rateLimitFromConfig(config, deps.kv.redis, `${config.REDIS_PREFIX}rl:`),
    compression: config.HTTP_COMPRESSION,
  });
  // Most-requested first: express tries each route in turn, so the feed's and the statistics'
  // requests should not walk past probes and docs. The feeds are plain routes (a router mounted at
  // the root is entered by every request); /stats and /users are prefix mounts, so their routes
  // are tried only for paths under them.
  addTransactionRoutes(app, deps);
  // mountRouter: the metrics label is the mount pattern, not the request's spelling of it.
  mountRouter(app, '/stats', createStatsRouter(deps));
  mountRouter(app, '/users', createUsersRouter(deps));
  mountRouter(app, '/defillama', createDefiLlamaRouter(deps));
  app.use(createHealthRouter(deps));
  serveOpenApi(app, buildOpenApiDocument([registerUsersOpenApi]));
  return finishHttpApp(app, deps.logger, { classifyError: classifyDatabaseError });
}
