/**
 * The Monitoring API: the route table. The services are built from the resources by
 * {@link buildAppDeps} (deps.ts), the rate limiter among them; each feature's routes are added
 * with the part of them they use, behind server-kit's helmet, CORS, request logs, metrics and
 * that rate limiter; `server.ts` opens
 * the resources, listens and drains.
 */
import { createHttpApp, finishHttpApp, serveOpenApi } from '@ctss/server-kit';
import type { Express } from 'express';
import { classifyDatabaseError } from './db/unavailable.js';
import { addDefiLlamaRoutes } from './defillama/router.js';
import { buildAppDeps, type AppResources } from './deps.js';
import { addHealthRoutes } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { addStatsRoutes } from './stats/router.js';
import { addTransactionRoutes } from './transactions/router.js';
import { addStreamRoutes } from './transactions/stream-router.js';
import { addUsersRoutes } from './users/router.js';

/** Builds the express app; it holds no resources of its own (closing is the caller's job). */
export function createApp(resources: AppResources): Express {
  const deps = buildAppDeps(resources);
  const { config, logger, metrics } = deps;
  const app = createHttpApp({
    logger,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    serveMetrics: config.METRICS_PORT === undefined,
    rateLimit: deps.rateLimiter,
    compression: config.HTTP_COMPRESSION,
  });
  // Most-requested first: express tries each route in turn, so the feed's and the statistics'
  // requests should not walk past probes and docs. The feeds are plain routes (a router mounted at
  // the root is entered by every request); /stats, /users and /defillama are prefix mounts
  // (server-kit mountRouter: the metrics label is the mount pattern), so their routes are tried
  // only for paths under them.
  // Before the lookups: their `/transactionsmainnet/:source_tx_hash` would take `stream`.
  addStreamRoutes(app, deps);
  addTransactionRoutes(app, deps);
  addStatsRoutes(app, { ...deps, cacheTtlSeconds: config.CACHE_TTL_SECONDS });
  addUsersRoutes(app, deps);
  addDefiLlamaRoutes(app, deps);
  addHealthRoutes(app, deps);
  serveOpenApi(app, buildOpenApiDocument());
  return finishHttpApp(app, logger, { classifyError: classifyDatabaseError });
}
