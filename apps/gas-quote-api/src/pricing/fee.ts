/**
 * The relayer fee formula of docs/api.md "Fee computation" and docs/decisions.md "D17. Fee
 * formula, rounding and minimum fees", in integer arithmetic:
 *
 * ```
 * gasCostDest = gasPrice[dest] * redeemGas[dest]                      (gas-price units)
 * feeUsd      = gasCostDest / 10^gasPriceDecimals[dest] * priceUsd[dest] * adjustment
 * feeBase     = max(ceil(feeUsd * 10^6), minFee[dest])                 (bridge asset base units)
 * feeNative   = ceil(feeBase / 10^6 / priceUsd[origin] * 10^decimals[origin])
 * ```
 *
 * Every division is done once, at the end, and rounds up, so the relayer is never under-paid by
 * rounding.
 */
import { BPS_SCALE, BRIDGE_ASSET_DECIMALS, USD_SCALE, ceilDiv, pow10 } from '../fixed-point.js';
import type { GasPrice } from '../prices/entries.js';

/** Inputs of {@link computeRouteFee}. Prices are fixed-point USD with 8 decimals. */
export interface RouteFeeInput {
  /** Gas price on the destination chain, where the relayer redeems. */
  readonly destGasPrice: GasPrice;
  /** Gas units one redeem uses on the destination chain. */
  readonly destRedeemGas: bigint;
  /** USD price of the destination native token (10^8 scale). */
  readonly destPriceUsd: bigint;
  /** Adjustment factor in basis points (10000 = 1.0). */
  readonly adjustmentBps: bigint;
  /** Minimum relayer fee of the destination chain, bridge asset base units (docs/api.md "Limits"). */
  readonly minFee: bigint;
  /** USD price of the origin native token (10^8 scale), used for the native fee. */
  readonly originPriceUsd: bigint;
  /** Decimals of the origin native token (18 EVM, 9 Solana/Sui, 8 Aptos). */
  readonly originDecimals: number;
}

/** The fee of one route in both currencies. */
export interface RouteFee {
  /** Fee in bridge asset base units (6 decimals), after the minimum. */
  readonly feeBase: bigint;
  /** The same fee in the origin native token's smallest unit (wei, lamports, ...), rounded up. */
  readonly feeNative: bigint;
  /** The fee before the minimum was applied, base units (for metrics and the fees feed). */
  readonly feeBaseRaw: bigint;
}

/**
 * Computes the relayer fee for one route (docs/api.md "Fee computation").
 *
 * @throws RangeError when a price is not positive or an input is negative.
 * @example
 * computeRouteFee({ destGasPrice: { price: 1_000_000_000n, decimals: 18 }, destRedeemGas: 200_000n,
 *   destPriceUsd: 3000n * USD_SCALE, adjustmentBps: 12_000n, minFee: 80_000n,
 *   originPriceUsd: 3000n * USD_SCALE, originDecimals: 18 });
 * // gas cost 0.0002 ETH = 0.60 USD, x1.2 = 0.72 USD -> feeBase 720000
 */
export function computeRouteFee(input: RouteFeeInput): RouteFee {
  if (input.destPriceUsd <= 0n || input.originPriceUsd <= 0n)
    throw new RangeError('prices must be positive');
  if (
    input.destGasPrice.price < 0n ||
    input.destRedeemGas < 0n ||
    input.adjustmentBps < 0n ||
    input.minFee < 0n
  ) {
    throw new RangeError('fee inputs must be non-negative');
  }
  const numerator =
    input.destGasPrice.price *
    input.destRedeemGas *
    input.destPriceUsd *
    input.adjustmentBps *
    pow10(BRIDGE_ASSET_DECIMALS);
  const denominator = pow10(input.destGasPrice.decimals) * USD_SCALE * BPS_SCALE;
  const feeBaseRaw = ceilDiv(numerator, denominator);
  const feeBase = feeBaseRaw > input.minFee ? feeBaseRaw : input.minFee;
  const feeNative = toNative(feeBase, input.originPriceUsd, input.originDecimals);
  return { feeBase, feeNative, feeBaseRaw };
}

/**
 * Converts bridge asset base units (6 decimals, 1 unit = 1 USD) to a native token's smallest unit
 * with its USD price (10^8 scale), rounding up.
 * @throws RangeError when the price is not positive.
 */
export function toNative(baseUnits: bigint, priceUsd: bigint, nativeDecimals: number): bigint {
  if (priceUsd <= 0n) throw new RangeError('price must be positive');
  return ceilDiv(
    baseUnits * USD_SCALE * pow10(nativeDecimals),
    pow10(BRIDGE_ASSET_DECIMALS) * priceUsd,
  );
}

/**
 * The native cost of `gas` units at `gasPrice`, in the native token's smallest unit (rounded up),
 * e.g. wei for EVM or lamports for Solana (whose gas price is in micro-lamports).
 */
export function gasCostNative(gasPrice: GasPrice, gas: bigint, nativeDecimals: number): bigint {
  const extra = gasPrice.decimals - nativeDecimals;
  if (extra <= 0) return gasPrice.price * gas * pow10(-extra);
  return ceilDiv(gasPrice.price * gas, pow10(extra));
}
