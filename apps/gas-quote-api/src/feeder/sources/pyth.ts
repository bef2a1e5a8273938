/**
 * Native token USD prices from Pyth Hermes: `GET /v2/updates/price/latest?ids[]=<id>&parsed=true`.
 * A price is accepted only when it is positive, its `publish_time` is within the maximum age, and
 * its confidence interval is at most `maxConfidenceBps` of the price.
 */
import { z } from '@ctss/domain-types';
import { BPS_SCALE, USD_DECIMALS, scaleExpo } from '../../pricing/fixed-point.js';
import { getJson } from './http.js';
import type { UsdQuote, UsdSource } from './types.js';

/**
 * Default Pyth price feed ids (https://pyth.network/developers/price-feed-ids) per native symbol.
 * Symbols without a feed here (POL, S, SEI) come from the fallback source unless configured
 * through PYTH_FEED_IDS.
 */
export const DEFAULT_PYTH_FEED_IDS: Readonly<Record<string, string>> = {
  ETH: '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
  SOL: '0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
  AVAX: '0x93da3352f9f1d105fdfe4971cfa80e9dd777bfc5d0f683ebb6e1294b92137bb7',
  SUI: '0x23d7315113f5b1d3ba7a83604c44b94d79f4fd69af77f804fc7f920a6dc65744',
  APT: '0x03ae4db29ed4ae33d323568895aa00337e658e348b37509f5372ae51f0af00d5',
  MON: '0x31491744e2dbf6df7fcf4ac0820d18a609b49076d45066d3568424e62f686cd1',
  HYPE: '0x4279e31cc369bbcc2faf022b382b080e32a8e689ff20fbc530d2a603eb6cd98b',
};

const PythPrice = z.object({
  price: z.string().regex(/^-?[0-9]+$/),
  conf: z.string().regex(/^[0-9]+$/),
  expo: z.number().int(),
  publish_time: z.number().int(),
});
const HermesLatest = z.object({
  parsed: z.array(z.object({ id: z.string(), price: PythPrice })),
});

/** Options of {@link createPythSource}. */
export interface PythSourceOptions {
  /** Hermes base URL, e.g. `https://hermes.pyth.network`. */
  readonly baseUrl: string;
  /** Feed id (0x hex) per native symbol. */
  readonly feedIds: Readonly<Record<string, string>>;
  /** Prices published longer ago than this are rejected, seconds. */
  readonly maxAgeSeconds: number;
  /** Largest accepted confidence / price ratio, basis points. */
  readonly maxConfidenceBps: bigint;
  readonly timeoutMs: number;
  /** Current time, ms. */
  readonly clock: () => number;
}

const normId = (id: string) => id.toLowerCase().replace(/^0x/, '');

/** Builds the Pyth Hermes {@link UsdSource}. */
export function createPythSource(options: PythSourceOptions): UsdSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: 'pyth',
    async fetch(symbols) {
      const wanted = symbols.filter((s) => options.feedIds[s] !== undefined);
      const out = new Map<string, UsdQuote>();
      if (wanted.length === 0) return out;
      const query = wanted.map((s) => `ids[]=${encodeURIComponent(options.feedIds[s]!)}`).join('&');
      const body = await getJson(
        `${base}/v2/updates/price/latest?${query}&parsed=true`,
        HermesLatest,
        options.timeoutMs,
      );
      const byId = new Map(body.parsed.map((p) => [normId(p.id), p.price]));
      const now = options.clock();
      for (const symbol of wanted) {
        const p = byId.get(normId(options.feedIds[symbol]!));
        if (!p) continue;
        const mantissa = BigInt(p.price);
        if (mantissa <= 0n) continue;
        const observedAt = p.publish_time * 1000;
        if (now - observedAt > options.maxAgeSeconds * 1000) continue;
        if (BigInt(p.conf) * BPS_SCALE > mantissa * options.maxConfidenceBps) continue;
        out.set(symbol, { price: scaleExpo(mantissa, p.expo, USD_DECIMALS), observedAt });
      }
      return out;
    },
  };
}
