/**
 * The Monitoring API: the route table. Each feature is built from the part of {@link AppDeps} it
 * uses and mounted here, behind server-kit's helmet, CORS, request logs, metrics and rate
 * limiting; `server.ts` builds the dependencies, listens and drains.
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
import { createStatsService } from './stats/service.js';
import { addTransactionRoutes } from './transactions/router.js';
import { BindingService } from './users/binding-service.js';
import { createUsersRouter } from './users/router.js';
import { createUsersService } from './users/service.js';

/** Builds the express app; it holds no resources of its own (closing is the caller's job). */
export function createApp(deps: AppDeps): Express {
  const { config, db, kv, clock, logger, metrics, names } = deps;
  const app = createHttpApp({
    logger,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    serveMetrics: config.METRICS_PORT === undefined,
    rateLimit: rateLimitFromConfig(config, kv.redis, `${config.REDIS_PREFIX}rl:`),
    compression: config.HTTP_COMPRESSION,
  });
  // Most-requested first: express tries each route in turn, so the feed's and the statistics'
  // requests should not walk past probes and docs. The feeds are plain routes (a router mounted at
  // the root is entered by every request); /stats and /users are prefix mounts, so their routes
  // are tried only for paths under them.
  addTransactionRoutes(app, {
    db,
    clock,
    names,
    firstPageCacheSeconds: config.FEED_FIRST_PAGE_CACHE_SECONDS,
    kv,
    indexedChains: config.FEED_INDEXED_CHAINS,
    closedPageMemoryBytes: config.FEED_CLOSED_PAGE_MEMORY_BYTES,
  });
  // mountRouter: the metrics label is the mount pattern, not the request's spelling of it.
  const stats = createStatsService({ db, clock });
  mountRouter(
    app,
    '/stats',
    createStatsRouter({ stats, kv, logger, cacheTtlSeconds: config.CACHE_TTL_SECONDS }),
  );
  const users = createUsersService({
    db,
    kv,
    logger,
    usernameSuffix: config.USERNAME_SUFFIX,
    countTtlSeconds: config.LEADERBOARD_COUNT_TTL_SECONDS,
  });
  const binding = new BindingService({
    primary: db.primary,
    kv,
    clock,
    nonceTtlSeconds: config.NONCE_TTL_SECONDS,
    usernameSuffix: config.USERNAME_SUFFIX,
  });
  mountRouter(app, '/users', createUsersRouter({ users, binding }));
  mountRouter(app, '/defillama', createDefiLlamaRouter({ db, clock }));
  app.use(createHealthRouter({ db, kv, logger, metrics }));
  serveOpenApi(app, buildOpenApiDocument());
  return finishHttpApp(app, logger, { classifyError: classifyDatabaseError });
}
