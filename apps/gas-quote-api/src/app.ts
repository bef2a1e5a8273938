/**
 * The Gas Quote API: the route table. Each feature is built from the part of {@link AppDeps} it
 * uses and mounted here; `server.ts` listens, drains and wires the process.
 */
import type { Server } from 'node:http';
import {
  createHttpApp,
  createRateLimiter,
  finishHttpApp,
  rateLimitFromConfig,
  serveOpenApi,
} from '@ctss/server-kit';
import type { Express } from 'express';
import { UPDATES_CHANNEL } from './channels.js';
import type { AppDeps } from './deps.js';
import { createUpgradeAdmission } from './feed/admission.js';
import { subscribeUpgradeHandler } from './feed/router.js';
import { createSubscribeHub, type SubscribeHub } from './feed/service.js';
import { healthRouter } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { TOKEN_PRICES_PATH, missingPriceDataProblem, tokenPricesHandler } from './prices/router.js';
import { priceAgeSamples } from './prices/service.js';
import { pricingParamsFromConfig } from './pricing/params.js';
import { createRoutePricer, type PricingParams } from './pricing/route-pricer.js';
import {
  ECDSA_QUOTE_PATH,
  ED25519_QUOTE_PATH,
  ecdsaQuoteHandler,
  ed25519QuoteHandler,
} from './quotes/router.js';
import { createQuoteService, quotePackingFor, signerIdentities } from './quotes/service.js';
import { ROUTES_PATH, routesHandler } from './routes/router.js';
import { createRoutesService } from './routes/service.js';

/** The built app: the express handler plus the WebSocket hub that shares its HTTP server. */
export interface GasQuoteApp {
  readonly app: Express;
  readonly ws: SubscribeHub;
  /** Pricing parameters in effect (the feeder uses the same). */
  readonly params: PricingParams;
  /**
   * Handles WebSocket upgrades on `server` (path /subscribe), starts the fan-out, and keeps the
   * in-process prices current from the feeder's update messages (PriceStore.watch).
   */
  attach(server: Server): Promise<void>;
  /**
   * Closes WebSockets (code 1001) and stops the price refresh. The caller owns and closes the kv
   * store and HTTP server.
   */
  close(): Promise<void>;
}

/** Builds the Gas Quote API. */
export function createApp(deps: AppDeps): GasQuoteApp {
  const { config, registry, priceStore, metrics, logger, clock, kv } = deps;
  const params = pricingParamsFromConfig(registry, config);
  const packingFor = quotePackingFor(config.quotePacking);
  const signers = signerIdentities(deps.signers);
  const quotes = createQuoteService({
    registry,
    pricer: createRoutePricer(registry, priceStore, params),
    clock,
    ecdsaSigner: deps.signers.ecdsa,
    ed25519Signer: deps.signers.ed25519,
    packingFor,
    metrics,
  });
  const routes = createRoutesService({ registry, priceStore, params, packingFor, clock, signers });
  metrics.setPriceAgeProvider(() => priceAgeSamples({ priceStore, registry, clock }));

  // One limiter for HTTP requests and WebSocket upgrades: an upgrade counts against the same limit.
  const rateLimiter = createRateLimiter(
    rateLimitFromConfig(config, kv.redis, `${config.REDIS_PREFIX}rl:`),
    { logger, metrics },
  );
  const app = createHttpApp({
    logger,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    serveMetrics: config.METRICS_PORT === undefined,
    rateLimit: rateLimiter,
  });
  // The hot endpoints first, as plain routes: no nested router to walk through per request.
  app.get(ECDSA_QUOTE_PATH, ecdsaQuoteHandler(quotes));
  app.get(ED25519_QUOTE_PATH, ed25519QuoteHandler(quotes));
  app.get(TOKEN_PRICES_PATH, tokenPricesHandler(priceStore));
  app.get(ROUTES_PATH, routesHandler(routes));
  app.use(
    healthRouter(
      {
        priceSource: config.priceSource,
        feederInProcess: config.feederInProcess,
        ecdsaSigner: signers.ecdsaAddress,
        ed25519PublicKey: signers.ed25519PublicKey,
      },
      registry,
      kv,
      priceStore,
    ),
  );
  serveOpenApi(app, buildOpenApiDocument());
  app.use(missingPriceDataProblem);
  finishHttpApp(app, logger);

  // WebSocket /subscribe: upgrades are routed, admitted, then served by the hub.
  const ws = createSubscribeHub({
    kv,
    logger,
    metrics,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    pingIntervalMs: config.WS_PING_INTERVAL_SECONDS * 1000,
  });
  const onUpgrade = subscribeUpgradeHandler(
    {
      allowedOrigins: config.CORS_ORIGINS,
      admission: createUpgradeAdmission({
        rateLimiter,
        trustProxy: config.TRUST_PROXY,
        maxConnectionsPerIp: config.WS_MAX_CONNECTIONS_PER_IP,
      }),
      logger,
    },
    (req, socket, head) => ws.accept(req, socket, head),
  );

  let stopWatching: (() => Promise<void>) | undefined;
  let attachedTo: Server | undefined;
  return {
    app,
    ws,
    params,
    async attach(server) {
      stopWatching = await priceStore.watch(UPDATES_CHANNEL, (err) =>
        logger.warn({ err }, 'refreshing the in-process prices failed'),
      );
      await ws.start();
      server.on('upgrade', onUpgrade);
      attachedTo = server;
    },
    async close() {
      attachedTo?.off('upgrade', onUpgrade);
      attachedTo = undefined;
      await ws.close();
      await stopWatching?.();
      stopWatching = undefined;
    },
  };
}
