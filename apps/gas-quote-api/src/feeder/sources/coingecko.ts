/**
 * Fallback native token USD prices from a CoinGecko-style simple price API:
 * `GET /api/v3/simple/price?ids=<ids>&vs_currencies=usd&include_last_updated_at=true`.
 */
import { z } from '@ctss/domain-types';
import { USD_DECIMALS, numberToFixed } from '../../pricing/fixed-point.js';
import { getJson } from './http.js';
import type { UsdQuote, UsdSource } from './types.js';
import type { Clock } from '../../clock.js';

const SimplePrice = z.record(
  z.string(),
  z.object({ usd: z.number().positive(), last_updated_at: z.number().int().optional() }),
);

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
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: 'coingecko',
    async fetch(symbols) {
      const wanted = symbols.filter((s) => options.coinIds[s] !== undefined);
      const out = new Map<string, UsdQuote>();
      if (wanted.length === 0) return out;
      const ids = [...new Set(wanted.map((s) => options.coinIds[s]!))].join(',');
      const body = await getJson(
        `${base}/api/v3/simple/price?ids=${encodeURIComponent(ids)}&vs_currencies=usd&include_last_updated_at=true`,
        SimplePrice,
        options.timeoutMs,
      );
      const now = options.clock();
      for (const symbol of wanted) {
        const entry = body[options.coinIds[symbol]!];
        if (!entry) continue;
        const observedAt = entry.last_updated_at !== undefined ? entry.last_updated_at * 1000 : now;
        if (now - observedAt > options.maxAgeSeconds * 1000) continue;
        out.set(symbol, {
          price: numberToFixed(entry.usd, USD_DECIMALS),
          observedAt: Math.min(observedAt, now),
        });
      }
      return out;
    },
  };
}
