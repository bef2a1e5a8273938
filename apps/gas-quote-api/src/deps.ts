/**
 * The one typed object of dependencies the app factory takes (docs/architecture.md "Packages
 * and what they own"): tests build it with real Redis, a fixed clock and known keys; `server.ts`
 * builds it from configuration. Each router takes only the part it uses.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import type { KvStore, Logger } from '@ctss/server-kit';
import type { Clock } from './clock.js';
import type { GasQuoteConfig } from './config.js';
import type { GasQuoteMetrics } from './metrics.js';
import type { PriceStore } from './prices/store.js';
import type { QuoteSigners } from './quotes/signers.js';

/** Everything the app needs; nothing else is reached through globals. */
export interface AppDeps {
  readonly config: GasQuoteConfig;
  /** The shared store (Redis or in-process): rate limits, pub/sub, latest messages. */
  readonly kv: KvStore;
  /** Gas and USD prices with their in-process copy (the feeder writes them). */
  readonly priceStore: PriceStore;
  /** The current time; tests pass a settable clock. */
  readonly clock: Clock;
  /** The quote signing keys (ECDSA for EVM origins, Ed25519 for the others). */
  readonly signers: QuoteSigners;
  readonly logger: Logger;
  /** Prometheus instruments of the app (a registry of its own per instance). */
  readonly metrics: GasQuoteMetrics;
  /** The served chains and CCTP routes. */
  readonly registry: ChainRegistry;
}
