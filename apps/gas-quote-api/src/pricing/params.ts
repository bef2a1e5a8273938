/** Per-chain pricing parameters resolved from configuration over registry defaults. */
import type { ChainRegistry } from '@ctss/domain-types';
import type { PricingParams } from './route-pricer.js';

/**
 * Builds {@link PricingParams}: redeem gas from `redeemGas` overrides, else the registry default
 * (docs/api.md "Fee computation"); adjustment from the per-domain override, else `defaultAdjustmentBps`.
 * @throws UnknownDomainError (from the registry) for a domain that is not served.
 */
export function createPricingParams(
  registry: ChainRegistry,
  overrides: {
    redeemGas: ReadonlyMap<number, bigint>;
    adjustmentBps: ReadonlyMap<number, bigint>;
    defaultAdjustmentBps: bigint;
  },
): PricingParams {
  return {
    redeemGas: (domain) => overrides.redeemGas.get(domain) ?? registry.require(domain).redeemGas,
    adjustmentBps: (domain) =>
      overrides.adjustmentBps.get(domain) ?? overrides.defaultAdjustmentBps,
  };
}
