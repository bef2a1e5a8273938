/**
 * The one typed dependency object the route table takes (docs/architecture.md "Packages and what
 * they own", "Gas quote API layout"): what start-up opens (stores, keys, logger, metrics) and the
 * services built from it once. `server.ts` opens the resources from configuration, tests open
 * them with real Redis, a fixed clock and known keys; both build the services with
 * {@link buildAppDeps}. Each router takes only the part it uses.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import {
  createRateLimiter,
  rateLimitFromConfig,
  type KvStore,
  type Logger,
  type RateLimiter,
} from '@ctss/server-kit';
import type { Clock } from './clock.js';
import type { GasQuoteConfig } from './config.js';
import { createUpgradeAdmission, type UpgradeAdmission } from './feed/admission.js';
import { createSubscribeHub, type SubscribeHub } from './feed/hub.js';
import type { GasQuoteMetrics } from './metrics.js';
import { priceAgeSamples } from './prices/sampler.js';
import { createPricesService, type PricesService } from './prices/service.js';
import type { PriceStore } from './prices/store.js';
import { pricingParamsFromConfig } from './pricing/params.js';
import { createRoutePricer, type PricingParams } from './pricing/route-pricer.js';
import {
  createQuoteService,
  quotePackingFor,
  signerIdentities,
  type QuoteService,
  type SignerIdentities,
} from './quotes/service.js';
import type { QuoteSigners } from './quotes/signers.js';
import { createRoutesService, type RoutesService } from './routes/service.js';

/** What start-up opens or loads before any service is built; nothing is reached through globals. */
export interface AppResources {
  readonly config: GasQuoteConfig;
  /** The shared store (Redis or in-process): rate limits, pub/sub, latest messages. */
  readonly kv: KvStore;
  /** Gas and USD prices with their in-process copy (the feeder writes them). */
  readonly priceStore: PriceStore;
  /** The current time, ms since epoch; tests pass a settable clock. */
  readonly clock: Clock;
  /** The quote signing keys (ECDSA for EVM origins, Ed25519 for the others). */
  readonly signers: QuoteSigners;
  readonly logger: Logger;
  /** Prometheus instruments of the app (a registry of its own per instance). */
  readonly metrics: GasQuoteMetrics;
  /** The served chains and CCTP routes. */
  readonly registry: ChainRegistry;
}

/** Everything the route table and `server.ts` use: the resources and the services built from them. */
export interface AppDeps extends AppResources {
  /** Pricing parameters in effect (the in-process feeder uses the same). */
  readonly params: PricingParams;
  /** The `/tokenPrices` answer from the price store (`prices/service.ts`). */
  readonly prices: PricesService;
  /** Prices, signs and caches quotes (`quotes/service.ts`). */
  readonly quotes: QuoteService;
  /** Lists the served routes with their current fees (`routes/service.ts`). */
  readonly routes: RoutesService;
  /** The public identities of `signers`, as `/health` and `/routes` report them. */
  readonly signerIdentities: SignerIdentities;
  /** One limiter for HTTP requests and WebSocket upgrades: an upgrade counts against the same limit. */
  readonly rateLimiter: RateLimiter;
  /** Rate limit and per-address connection cap of `/subscribe` upgrades. */
  readonly upgradeAdmission: UpgradeAdmission;
  /** The WebSocket fan-out of `/subscribe` (started and closed by `server.ts` `attachApp`). */
  readonly subscribeHub: SubscribeHub;
}

/**
 * Builds the services of the app from `resources` (pricing parameters from the registry and
 * configuration, docs/api.md "Fee computation") and points the price age gauge at the in-process
 * price copy. Starts nothing (`server.ts` `attachApp` does).
 */
export function buildAppDeps(resources: AppResources): AppDeps {
  const { config, registry, priceStore, metrics, logger, clock, kv, signers } = resources;
  const params = pricingParamsFromConfig(registry, config);
  const packingFor = quotePackingFor(config.quotePacking);
  const identities = signerIdentities(signers);
  const quotes = createQuoteService({
    registry,
    pricer: createRoutePricer(registry, priceStore, params),
    clock,
    ecdsaSigner: signers.ecdsa,
    ed25519Signer: signers.ed25519,
    packingFor,
    metrics,
  });
  const routes = createRoutesService({
    registry,
    priceStore,
    params,
    packingFor,
    clock,
    signers: identities,
  });
  metrics.setPriceAgeProvider(() => priceAgeSamples({ priceStore, registry, clock }));
  const rateLimiter = createRateLimiter(
    rateLimitFromConfig(config, kv.redis, `${config.REDIS_PREFIX}rl:`),
    { logger, metrics },
  );
  const upgradeAdmission = createUpgradeAdmission({
    rateLimiter,
    trustProxy: config.TRUST_PROXY,
    maxConnectionsPerIp: config.WS_MAX_CONNECTIONS_PER_IP,
  });
  const subscribeHub = createSubscribeHub({
    kv,
    logger,
    metrics,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    pingIntervalMs: config.WS_PING_INTERVAL_SECONDS * 1000,
  });

  return {
    ...resources,
    params,
    prices: createPricesService({ priceStore }),
    quotes,
    routes,
    signerIdentities: identities,
    rateLimiter,
    upgradeAdmission,
    subscribeHub,
  };
}
