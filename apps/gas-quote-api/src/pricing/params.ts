/** Per-chain pricing parameters resolved from configuration over registry defaults. */
import type { ChainRegistry } from '@ctss/domain-types';
import type { GasQuoteConfig } from '../config.js';
import type { PricingParams } from './route-pricer.js';

/**
 * Builds {@link PricingParams}: redeem gas from `redeemGas` overrides, else the registry default
 * (docs/api.md "Fee computation"); adjustment from the per-domain override, else `defaultAdjustmentBps`.
 * @throws UnknownDomainError (from the registry) for a domain that is not served.
 */
function createPricingParams(
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

/**
 * {@link createPricingParams} from the settings REDEEM_GAS_<DOMAIN>, FEE_ADJUSTMENT_BPS_<DOMAIN>
 * and FEE_ADJUSTMENT_BPS (README.md "Configuration"): the API and the feeder price alike.
 */
export function pricingParamsFromConfig(
  registry: ChainRegistry,
  config: Pick<GasQuoteConfig, 'redeemGas' | 'feeAdjustmentBps' | 'FEE_ADJUSTMENT_BPS'>,
): PricingParams {
  return createPricingParams(registry, {
    redeemGas: config.redeemGas,
    adjustmentBps: config.feeAdjustmentBps,
    defaultAdjustmentBps: config.FEE_ADJUSTMENT_BPS,
  });
}
