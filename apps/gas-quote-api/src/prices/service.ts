/**
 * The token prices (docs/api.md "Token prices"): domain id to native token USD price, latest
 * fresh values, served from the price store's in-process snapshot.
 */
import { PriceSnapshot } from './snapshot.js';
import type { PriceStore } from './store.js';

/** What the token prices read: the price store (its repository). */
export interface PricesServiceDeps {
  readonly priceStore: Pick<PriceStore, 'snapshot'>;
}

/** The `/tokenPrices` answer. */
export interface PricesService {
  /**
   * The JSON body of `/tokenPrices`, built once per snapshot and kept while every included price
   * is fresh; stale tokens are left out. Synchronous while the in-process snapshot is current
   * (the hot path awaits nothing).
   *
   * @throws MissingPriceDataError (entries.ts) when no price at all is fresh.
   */
  tokenPricesJson(): string | Promise<string>;
}

/** Builds the token prices over the price store. */
export function createPricesService(deps: PricesServiceDeps): PricesService {
  return {
    tokenPricesJson() {
      const pending = deps.priceStore.snapshot();
      return pending instanceof PriceSnapshot
        ? pending.tokenPricesJson()
        : pending.then((snapshot) => snapshot.tokenPricesJson());
    },
  };
}
