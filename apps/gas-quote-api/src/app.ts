/**
 * The Gas Quote API app factory: every dependency comes in through one typed object, so tests
 * build the app with real stores, a fixed clock and known keys; `main.ts` only wires and listens.
 */
import type { Server } from 'node:http';
import type { ChainRegistry } from '@ctss/domain-types';
import {
  HttpProblem,
  createHttpApp,
  createRateLimiter,
  finishHttpApp,
  rateLimitFromConfig,
  serveOpenApi,
  type KvStore,
  type Logger,
} from '@ctss/server-kit';
import type { Ed25519Signer, Secp256k1Signer } from '@ctss/signing';
import type { ErrorRequestHandler, Express } from 'express';
import type { GasQuoteConfig } from './config.js';
import type { GasQuoteMetrics, PriceAgeSample } from './metrics.js';
import { createPricingParams } from './pricing/params.js';
import { MissingPriceDataError, type PriceStore } from './prices/store.js';
import { createRoutePricer, type PricingParams } from './pricing/route-pricer.js';
import { ECDSA_QUOTE_PATH, ecdsaQuoteHandler } from './quotes/router.js';
import { ED25519_QUOTE_PATH, ed25519QuoteHandler } from './quotes/ed25519-router.js';
import { healthRouter } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { ROUTES_PATH, routesHandler } from './routes/router.js';
import { TOKEN_PRICES_PATH, tokenPricesHandler } from './prices/router.js';
import { UPDATES_CHANNEL } from './feeder/feeder.js';
import { createQuoteService } from './quotes/service.js';
import { createUpgradeAdmission } from './feed/admission.js';
import { createSubscribeHub, type SubscribeHub } from './feed/service.js';

/** Dependencies of {@link createApp}. */
export interface AppDeps {
  readonly config: GasQuoteConfig;
  /** The shared store (Redis or in-process): rate limits, pub/sub, latest messages. */
  readonly kv: KvStore;
  readonly priceStore: PriceStore;
  /** Current time, ms since epoch. */
  readonly clock: () => number;
  readonly signers: { readonly ecdsa: Secp256k1Signer; readonly ed25519: Ed25519Signer };
  readonly logger: Logger;
  readonly metrics: GasQuoteMetrics;
  readonly registry: ChainRegistry;
}

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

/** Maps missing or stale price data to 500 MISSING_PRICE_DATA (docs/api.md "Errors";
 * docs/decisions.md "D16. MISSING_PRICE_DATA is a 500"). */
const missingPriceData: ErrorRequestHandler = (err, _req, _res, next) => {
  next(
    err instanceof MissingPriceDataError
      ? new HttpProblem(500, 'MISSING_PRICE_DATA', err.message, { 'Retry-After': '5' })
      : err,
  );
};

/** Builds the Gas Quote API. */
export function createApp(deps: AppDeps): GasQuoteApp {
  const { config, registry, priceStore, metrics, logger } = deps;
  const params = createPricingParams(registry, {
    redeemGas: config.redeemGas,
    adjustmentBps: config.feeAdjustmentBps,
    defaultAdjustmentBps: config.FEE_ADJUSTMENT_BPS,
  });
  const packingFor = (domain: number) => config.quotePacking.get(domain) ?? 'spec';
  const signerIds = {
    ecdsaAddress: deps.signers.ecdsa.address,
    ed25519PublicKey: `0x${Buffer.from(deps.signers.ed25519.publicKey).toString('hex')}`,
  };
  const quotes = createQuoteService({
    registry,
    pricer: createRoutePricer(registry, priceStore, params),
    clock: deps.clock,
    ecdsaSigner: deps.signers.ecdsa,
    ed25519Signer: deps.signers.ed25519,
    packingFor,
    metrics,
  });
  // Ages come from the in-process copy of the store that the quote routes read: a scrape costs
  // no store reads (the copy is at most about a second behind the store, see price-store.ts).
  metrics.setPriceAgeProvider(() => {
    const loaded = priceStore.lastLoaded();
    if (!loaded) return [];
    const now = deps.clock();
    const samples: PriceAgeSample[] = [];
    for (const chain of registry.all()) {
      const gas = loaded.gas.get(chain.domain);
      const usd = loaded.usd.get(chain.nativeSymbol);
      if (gas && !(gas instanceof Error))
        samples.push({
          domain: chain.domain,
          kind: 'gas',
          ageSeconds: (now - gas.observedAt) / 1000,
        });
      if (usd && !(usd instanceof Error))
        samples.push({
          domain: chain.domain,
          kind: 'usd',
          ageSeconds: (now - usd.observedAt) / 1000,
        });
    }
    return samples;
  });

  // One limiter for HTTP requests and WebSocket upgrades: an upgrade counts against the same limit.
  const rateLimiter = createRateLimiter(
    rateLimitFromConfig(config, deps.kv.redis, `${config.REDIS_PREFIX}rl:`),
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
  app.get(
    ROUTES_PATH,
    routesHandler({
      registry,
      priceStore,
      params,
      packingFor,
      clock: deps.clock,
      signers: signerIds,
    }),
  );
  app.use(
    healthRouter(
      {
        priceSource: config.priceSource,
        feederInProcess: config.feederInProcess,
        ecdsaSigner: signerIds.ecdsaAddress,
        ed25519PublicKey: signerIds.ed25519PublicKey,
      },
      registry,
      deps.kv,
      priceStore,
    ),
  );
  serveOpenApi(app, buildOpenApiDocument());
  app.use(missingPriceData);
  finishHttpApp(app, logger);

  const ws = createSubscribeHub({
    kv: deps.kv,
    logger,
    metrics,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    pingIntervalMs: config.WS_PING_INTERVAL_SECONDS * 1000,
    allowedOrigins: config.CORS_ORIGINS,
    admission: createUpgradeAdmission({
      rateLimiter,
      trustProxy: config.TRUST_PROXY,
      maxConnectionsPerIp: config.WS_MAX_CONNECTIONS_PER_IP,
    }),
  });
  let stopWatching: (() => Promise<void>) | undefined;
  return {
    app,
    ws,
    params,
    async attach(server) {
      stopWatching = await priceStore.watch(UPDATES_CHANNEL, (err) =>
        logger.warn({ err }, 'refreshing the in-process prices failed'),
      );
      await ws.attach(server);
    },
    async close() {
      await ws.close();
      await stopWatching?.();
      stopWatching = undefined;
    },
  };
}
