/**
 * Builds the WebSocket `fees` and `tokenPrices` messages (docs/api.md "WebSocket subscribe") from fresh store
 * entries (the `GET /tokenPrices` body comes from the in-process snapshot, price-snapshot.ts).
 */
import type { ChainRegistry, FeesMessage, TokenPricesMessage } from '@ctss/domain-types';
import { computeRouteFee, gasCostNative } from './fee.js';
import {
  BRIDGE_ASSET_DECIMALS,
  USD_DECIMALS,
  fixedToNumber,
  formatFixed,
  pow10,
} from '../fixed-point.js';
import { MissingPriceDataError, type GasReading } from '../prices/entries.js';
import type { PriceStore } from '../prices/store.js';
import type { PricingParams } from './route-pricer.js';

async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof MissingPriceDataError) return undefined;
    throw err;
  }
}

/** Fresh USD prices (10^8 scale) per domain; domains whose price is missing or stale are left out. */
export async function freshDomainPrices(
  registry: ChainRegistry,
  store: PriceStore,
): Promise<Map<number, bigint>> {
  const symbols = [...new Set(registry.all().map((c) => c.nativeSymbol))];
  const readings = await Promise.all(
    symbols.map(async (s) => [s, await orUndefined(store.usd(s))] as const),
  );
  const bySymbol = new Map(
    readings.filter(([, r]) => r !== undefined).map(([s, r]) => [s, r!.price]),
  );
  const out = new Map<number, bigint>();
  for (const c of registry.all()) {
    const p = bySymbol.get(c.nativeSymbol);
    if (p !== undefined) out.set(c.domain, p);
  }
  return out;
}

/** The WebSocket `tokenPrices` message: domain id to USD price as a decimal string. */
export function tokenPricesMessage(prices: Map<number, bigint>): TokenPricesMessage {
  return {
    type: 'tokenPrices',
    data: Object.fromEntries(
      [...prices].map(([d, p]) => [String(d), formatFixed(p, USD_DECIMALS)]),
    ),
  };
}

/**
 * The WebSocket `fees` message: for each source chain with fresh data, the fee to every supported
 * destination (`native` in source native smallest units, `usd` = base fee / 10^6) and the cost of
 * one redeem on the source chain (`gas`). Chains without fresh data are left out.
 */
export async function buildFeesMessage(
  registry: ChainRegistry,
  store: PriceStore,
  params: PricingParams,
  prices: Map<number, bigint>,
): Promise<FeesMessage> {
  const chains = registry.all();
  const gasEntries = await Promise.all(
    chains.map(async (c) => [c.domain, await orUndefined(store.gas(c.domain))] as const),
  );
  const gas = new Map<number, GasReading>();
  for (const [d, g] of gasEntries) if (g) gas.set(d, g);
  const data: FeesMessage['data'] = {};
  for (const src of chains) {
    const srcPrice = prices.get(src.domain);
    const srcGas = gas.get(src.domain);
    if (srcPrice === undefined || !srcGas) continue;
    const fee: Record<string, { native: string; usd: number }> = {};
    for (const dst of chains) {
      const dstGas = gas.get(dst.domain);
      const dstPrice = prices.get(dst.domain);
      if (!dstGas || dstPrice === undefined) continue;
      if (
        !registry.isRouteSupported(src.domain, dst.domain, 1) &&
        !registry.isRouteSupported(src.domain, dst.domain, 2)
      )
        continue;
      const f = computeRouteFee({
        destGasPrice: dstGas,
        destRedeemGas: params.redeemGas(dst.domain),
        destPriceUsd: dstPrice,
        adjustmentBps: params.adjustmentBps(dst.domain),
        minFee: dst.minRelayerFee,
        originPriceUsd: srcPrice,
        originDecimals: src.nativeDecimals,
      });
      fee[String(dst.domain)] = {
        native: f.feeNative.toString(),
        usd: fixedToNumber(f.feeBase, BRIDGE_ASSET_DECIMALS),
      };
    }
    const gasNative = gasCostNative(srcGas, params.redeemGas(src.domain), src.nativeDecimals);
    const gasUsd = (gasNative * srcPrice) / pow10(src.nativeDecimals); // 10^8-scale USD, floored
    data[String(src.domain)] = {
      fee,
      gas: { native: gasNative.toString(), usd: fixedToNumber(gasUsd, USD_DECIMALS) },
    };
  }
  return { type: 'fees', data };
}
