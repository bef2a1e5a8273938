/**
 * The Gas Quote API: the route table. Each feature's routes are added with the part of
 * {@link AppDeps} they use (deps.ts builds the services); `server.ts` listens, hands WebSocket
 * upgrades to {@link GasQuoteApp.onUpgrade} and drains.
 */
import { createHttpApp, finishHttpApp, serveOpenApi } from '@ctss/server-kit';
import type { Express } from 'express';
import type { AppDeps } from './deps.js';
import { subscribeUpgradeHandler, type UpgradeListener } from './feed/router.js';
import { addHealthRoutes } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { addPriceRoutes, missingPriceDataProblem } from './prices/router.js';
import { addQuoteRoutes } from './quotes/router.js';
import { addRoutesRoutes } from './routes/router.js';

/** The routes of the app: HTTP requests and WebSocket upgrades, on one HTTP server. */
export interface GasQuoteApp {
  /** The express handler of every HTTP route. */
  readonly app: Express;
  /** The server's `upgrade` listener: `/subscribe`, admitted, then served by the hub. */
  readonly onUpgrade: UpgradeListener;
}

/** Builds the route table; it holds no resources of its own (starting and closing are `deps`'). */
export function createApp(deps: AppDeps): GasQuoteApp {
  const { config, metrics, logger } = deps;
  const app = createHttpApp({
    logger,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    serveMetrics: config.METRICS_PORT === undefined,
    rateLimit: deps.rateLimiter,
  });
  // The hot endpoints first, as plain routes: no nested router to walk through per request.
  addQuoteRoutes(app, deps);
  addPriceRoutes(app, deps);
  addRoutesRoutes(app, deps);
  addHealthRoutes(app, deps);
  serveOpenApi(app, buildOpenApiDocument());
  app.use(missingPriceDataProblem);
  finishHttpApp(app, logger);

  const onUpgrade = subscribeUpgradeHandler(
    { allowedOrigins: config.CORS_ORIGINS, admission: deps.upgradeAdmission, logger },
    (req, socket, head) => deps.subscribeHub.accept(req, socket, head),
  );
  return { app, onUpgrade };
}
