/**
 * Circle's CCTP v2 fee table (Iris `GET /v2/burn/USDC/fees/{sourceDomainId}/{destDomainId}`,
 * developers.circle.com "Get USDC transfer fees"): an array of `{ finalityThreshold, minimumFee }`,
 * `minimumFee` in basis points, possibly fractional (`1.3`). Fast transfers (threshold 1000) pay
 * it out of the burned amount; standard ones (2000) pay nothing.
 */
import { z } from '@ctss/domain-types';
import { getJson, normalizeBase, type HttpOptions } from './http.js';

/** One entry of Circle's fee table. */
export const CircleFeeEntry = z
  .object({ finalityThreshold: z.number().int().min(0), minimumFee: z.number().min(0) })
  .loose();
/** The Iris fee response. */
export const CircleFeeTable = z.array(CircleFeeEntry);
export type CircleFeeTable = z.infer<typeof CircleFeeTable>;

/** The finality threshold of a fast (1000) and a standard (2000) CCTP v2 transfer. */
export const FINALITY_THRESHOLD = { fast: 1000, standard: 2000 } as const;

/**
 * Local fallback when Iris cannot be read, in thousandths of a basis point: fast 14 bps (the top
 * of Circle's documented 0-14 bps range, so the maxFee is never too low), standard 0.
 */
export const FALLBACK_FEE_MILLI_BPS: Readonly<Record<number, bigint>> = { 1000: 14_000n, 2000: 0n };

/** A fee rate in thousandths of a basis point (1.3 bps = 1300n), exact. */
export function milliBps(minimumFee: number): bigint {
  const text = String(minimumFee);
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!m) throw new RangeError(`minimumFee ${text} is not a plain decimal`);
  const frac = (m[2] ?? '').padEnd(3, '0');
  const whole = BigInt(m[1]!) * 1000n + BigInt(frac.slice(0, 3));
  // Round up anything finer than a thousandth of a basis point.
  return /[1-9]/.test(frac.slice(3)) ? whole + 1n : whole;
}

/** The rate Circle charges for `threshold`, with where it came from. */
export interface CircleFeeRate {
  readonly milliBps: bigint;
  readonly source: 'iris' | 'fallback';
}

/**
 * Reads Circle's fee rate for a route and finality threshold, falling back to
 * {@link FALLBACK_FEE_MILLI_BPS} when Iris is unreachable or answers unexpectedly.
 *
 * @param irisUrl Iris base URL (e.g. `https://iris-api.circle.com`); undefined: the fallback.
 */
export async function circleFeeRate(
  irisUrl: string | undefined,
  sourceDomain: number,
  destinationDomain: number,
  threshold: number,
  http: HttpOptions = {},
): Promise<CircleFeeRate> {
  const fallback = (): CircleFeeRate => ({
    milliBps: FALLBACK_FEE_MILLI_BPS[threshold] ?? FALLBACK_FEE_MILLI_BPS[1000]!,
    source: 'fallback',
  });
  if (!irisUrl) return fallback();
  try {
    const table = await getJson(
      `${normalizeBase(irisUrl)}/v2/burn/USDC/fees/${sourceDomain}/${destinationDomain}`,
      CircleFeeTable,
      { ...http, maxRetries: 0 },
    );
    const entry = table.find((e) => e.finalityThreshold === threshold);
    return entry ? { milliBps: milliBps(entry.minimumFee), source: 'iris' } : fallback();
  } catch {
    return fallback();
  }
}

/**
 * The `maxFee` of a v2 transfer burning `burnAmount` base units at `rate` (thousandths of a bps),
 * with `bufferPercent` headroom (default 20 %, as Circle advises 10-20 %), rounded up.
 */
export function maxFeeFor(burnAmount: bigint, rate: bigint, bufferPercent = 20n): bigint {
  if (rate === 0n) return 0n;
  const scaled = burnAmount * rate * (100n + bufferPercent);
  const denominator = 10_000n * 1000n * 100n;
  return (scaled + denominator - 1n) / denominator;
}
