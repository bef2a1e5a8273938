/**
 * Native token USD prices from Pyth Hermes: `GET /v2/updates/price/latest?ids[]=<id>&parsed=true`.
 * A price is accepted only when it is positive, its `publish_time` is within the maximum age, and
 * its confidence interval is at most `maxConfidenceBps` of the price.
 */
import { z } from '@ctss/domain-types';
import { BPS_SCALE, USD_DECIMALS, scaleExpo } from '../../fixed-point.js';
import { getJson } from './http.js';
import type { UsdSource } from './types.js';
import { createUsdSourceById } from './usd-by-id.js';
import type { Clock } from '../../clock.js';

const PythPrice = z.object({
  price: z.string().regex(/^-?[0-9]+$/),
  conf: z.string().regex(/^[0-9]+$/),
  expo: z.number().int(),
  publish_time: z.number().int(),
});
type PythPrice = z.infer<typeof PythPrice>;
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
  readonly clock: Clock;
}

const normId = (id: string) => id.toLowerCase().replace(/^0x/, '');

/** Builds the Pyth Hermes {@link UsdSource}. */
export function createPythSource(options: PythSourceOptions): UsdSource {
  return createUsdSourceById<PythPrice>(options, {
    name: 'pyth',
    ids: options.feedIds,
    async fetchEntries(base, feedIds) {
      const query = feedIds.map((id) => `ids[]=${encodeURIComponent(id)}`).join('&');
      const body = await getJson(
        `${base}/v2/updates/price/latest?${query}&parsed=true`,
        HermesLatest,
        options.timeoutMs,
      );
      const byId = new Map(body.parsed.map((p) => [normId(p.id), p.price]));
      return (id) => byId.get(normId(id));
    },
    toQuote(p, now) {
      const mantissa = BigInt(p.price);
      if (mantissa <= 0n) return undefined;
      const observedAt = p.publish_time * 1000;
      if (now - observedAt > options.maxAgeSeconds * 1000) return undefined;
      if (BigInt(p.conf) * BPS_SCALE > mantissa * options.maxConfidenceBps) return undefined;
      return { price: scaleExpo(mantissa, p.expo, USD_DECIMALS), observedAt };
    },
  });
}
