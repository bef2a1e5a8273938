/**
 * The stores both processes (API and feeder) open from configuration: the chain registry, the
 * KvStore (Redis at REDIS_URL, else in-process) and the price store over it.
 */
import { createChainRegistry, type ChainRegistry } from '@ctss/domain-types';
import { createKvStore, type KvStore, type Logger } from '@ctss/server-kit';
import type { Clock } from './clock.js';
import type { GasQuoteConfig } from './config.js';
import { createPriceStore, type PriceStore } from './prices/store.js';

/** What {@link openStores} returns; the caller closes `kv`. */
export interface Stores {
  readonly registry: ChainRegistry;
  readonly kv: KvStore;
  readonly priceStore: PriceStore;
}

/** Opens the stores from REDIS_URL, REDIS_PREFIX and PRICE_MAX_AGE_SECONDS (seconds). */
export function openStores(
  config: Pick<GasQuoteConfig, 'REDIS_URL' | 'REDIS_PREFIX' | 'PRICE_MAX_AGE_SECONDS'>,
  logger: Logger,
  clock: Clock,
): Stores {
  const registry = createChainRegistry();
  const kv = createKvStore({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger });
  const priceStore = createPriceStore(kv, {
    maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
    clock,
    registry,
  });
  return { registry, kv, priceStore };
}
