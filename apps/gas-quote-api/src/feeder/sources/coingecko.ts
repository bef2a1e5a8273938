/**
 * Fallback native token USD prices from a CoinGecko-style simple price API:
 * `GET /api/v3/simple/price?ids=<ids>&vs_currencies=usd&include_last_updated_at=true`.
 */
import { z } from '@ctss/domain-types';
import { USD_DECIMALS, numberToFixed } from '../../fixed-point.js';
import { getJson } from './http.js';
import type { UsdSource } from './types.js';
import { createUsdSourceById } from './usd-by-id.js';
import type { Clock } from '../../clock.js';

const SimplePriceEntry = z.object({
  usd: z.number().positive(),
  last_updated_at: z.number().int().optional(),
});
type SimplePriceEntry = z.infer<typeof SimplePriceEntry>;
const SimplePrice = z.record(z.string(), SimplePriceEntry);

/** Options of {@link createCoinGeckoSource}. */
export interface CoinGeckoSourceOptions {
  /** API base URL, e.g. `https://api.coingecko.com`. */
  readonly baseUrl: string;
  /** Coin id per native symbol. */
  readonly coinIds: Readonly<Record<string, string>>;
  /** Prices updated longer ago than this are rejected, seconds. */
  readonly maxAgeSeconds: number;
  readonly timeoutMs: number;
  readonly clock: Clock;
}

/** Builds the CoinGecko-style fallback {@link UsdSource}. */
export function createCoinGeckoSource(options: CoinGeckoSourceOptions): UsdSource {
  return createUsdSourceById<SimplePriceEntry>(options, {
    name: 'coingecko',
    ids: options.coinIds,
    async fetchEntries(base, coinIds) {
      const ids = [...new Set(coinIds)].join(',');
      const body = await getJson(
        `${base}/api/v3/simple/price?ids=${encodeURIComponent(ids)}&vs_currencies=usd&include_last_updated_at=true`,
        SimplePrice,
        options.timeoutMs,
      );
      return (id) => body[id];
    },
    toQuote(entry, now) {
      const observedAt = entry.last_updated_at !== undefined ? entry.last_updated_at * 1000 : now;
      if (now - observedAt > options.maxAgeSeconds * 1000) return undefined;
      return {
        price: numberToFixed(entry.usd, USD_DECIMALS),
        observedAt: Math.min(observedAt, now),
      };
    },
  });
}
