/**
 * Fixed-point helpers for money arithmetic. All pricing is bigint; USD prices are integers scaled
 * by {@link USD_SCALE} (10^8, the scale Pyth uses for most USD feeds). Source: docs/api.md "Fee computation".
 */

/** Number of decimals of a fixed-point USD price (10^8 = 1 USD). */
export const USD_DECIMALS = 8;
/** 10^8: the integer that stands for 1 USD in a fixed-point USD price. */
export const USD_SCALE = 10n ** BigInt(USD_DECIMALS);
/** 10^4: basis points in one (100%). */
export const BPS_SCALE = 10_000n;
/** Decimals of the bridge asset (USDC): fees in base units are 10^-6 of one asset unit. */
export const BRIDGE_ASSET_DECIMALS = 6;

/** 10^n as bigint. @throws RangeError when n is negative. */
export function pow10(n: number): bigint {
  if (n < 0 || !Number.isInteger(n))
    throw new RangeError(`pow10: ${n} is not a non-negative integer`);
  return 10n ** BigInt(n);
}

/**
 * Ceiling division of non-negative integers.
 * @throws RangeError when `b` is not positive or `a` is negative.
 */
export function ceilDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError('ceilDiv: divisor must be positive');
  if (a < 0n) throw new RangeError('ceilDiv: dividend must be non-negative');
  return (a + b - 1n) / b;
}

/**
 * Parses a non-negative decimal string (e.g. `"3012.45"`, `"1e-3"` is rejected) into a fixed-point
 * integer with `decimals` places, rounding half up beyond them.
 * @throws RangeError on anything that is not a plain non-negative decimal.
 */
export function parseDecimal(value: string, decimals: number): bigint {
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not a non-negative decimal: ${JSON.stringify(value)}`);
  const whole = m[1] ?? '0';
  const frac = m[2] ?? '';
  const kept = frac.slice(0, decimals).padEnd(decimals, '0');
  let result = BigInt(whole) * pow10(decimals) + BigInt(kept === '' ? '0' : kept);
  const next = frac.charAt(decimals);
  if (next !== '' && Number(next) >= 5) result += 1n;
  return result;
}

/**
 * Converts a finite non-negative JS number (e.g. a price from a JSON API) to fixed point with
 * `decimals` places, going through its shortest decimal representation so no binary noise leaks in.
 * @throws RangeError for negative, non-finite values.
 */
export function numberToFixed(value: number, decimals: number): bigint {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`not a non-negative finite number: ${value}`);
  const text = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  return parseDecimal(text, decimals);
}

/**
 * Scales a mantissa/exponent pair (Pyth's `price` and `expo`) to fixed point with `decimals` places,
 * rounding half up when digits are dropped.
 * @throws RangeError when the mantissa is negative.
 */
export function scaleExpo(mantissa: bigint, expo: number, decimals: number): bigint {
  if (mantissa < 0n) throw new RangeError('negative price');
  const shift = expo + decimals;
  if (shift >= 0) return mantissa * pow10(shift);
  const div = pow10(-shift);
  return (mantissa * 2n + div) / (2n * div);
}

/** Formats a fixed-point integer as a plain decimal string without trailing zeros (`"3012.45"`). */
export function formatFixed(value: bigint, decimals: number): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const scale = pow10(decimals);
  const whole = abs / scale;
  const frac = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A fixed-point integer as a JS number (only for `_usd`-style float outputs, never for pricing). */
export function fixedToNumber(value: bigint, decimals: number): number {
  return Number(formatFixed(value, decimals));
}
