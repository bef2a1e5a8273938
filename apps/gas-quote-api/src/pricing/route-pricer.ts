/**
 * Prices one route from the price store's in-process snapshot: destination gas price and token
 * price, origin token price, per-chain redeem gas and adjustment factor (docs/api.md "Fee computation"). The
 * fee is computed once per route and snapshot, and reused while the entries it read are fresh.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import { computeRouteFee, type RouteFee } from './fee.js';
import { PriceSnapshot } from '../prices/snapshot.js';
import type { PriceStore } from '../prices/store.js';

/** Per-chain pricing parameters, resolved from configuration with documented defaults. */
export interface PricingParams {
  /** Gas units one redeem uses on `domain` (default: the registry's redeemGas). */
  redeemGas(domain: number): bigint;
  /** Adjustment factor for redeems on `domain`, basis points (10000 = 1.0). */
  adjustmentBps(domain: number): bigint;
}

/** The priced route with the observation times of the data used. */
interface PricedRoute extends RouteFee {
  /** Oldest observation time among the entries used, ms since epoch. */
  readonly oldestObservation: number;
}

/** Prices routes; see {@link createRoutePricer}. */
export interface RoutePricer {
  /**
   * Fee of a transfer from `local` to `dest`.
   * @throws MissingPriceDataError when an entry needed is missing or stale.
   * @throws UnknownDomainError when a domain is not in the registry.
   */
  price(local: number, dest: number): Promise<PricedRoute>;
}

/** Builds a {@link RoutePricer} reading `store`. */
export function createRoutePricer(
  registry: ChainRegistry,
  store: PriceStore,
  params: PricingParams,
): RoutePricer {
  return {
    async price(local, dest) {
      const pending = store.snapshot();
      const snapshot = pending instanceof PriceSnapshot ? pending : await pending;
      // The fee is a function of the snapshot's entries: computed once per route and snapshot.
      return snapshot.derived(`route:${local}:${dest}`, () => {
        const origin = registry.require(local);
        const target = registry.require(dest);
        const gas = snapshot.gas(dest);
        const destUsd = snapshot.usd(target.nativeSymbol);
        const originUsd = snapshot.usd(origin.nativeSymbol);
        const fee = computeRouteFee({
          destGasPrice: gas,
          destRedeemGas: params.redeemGas(dest),
          destPriceUsd: destUsd.price,
          adjustmentBps: params.adjustmentBps(dest),
          minFee: target.minRelayerFee,
          originPriceUsd: originUsd.price,
          originDecimals: origin.nativeDecimals,
        });
        return {
          ...fee,
          oldestObservation: Math.min(gas.observedAt, destUsd.observedAt, originUsd.observedAt),
        };
      });
    },
  };
}
