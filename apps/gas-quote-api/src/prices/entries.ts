/**
 * Price entries as read from the store, the error a missing or stale one gives, and the
 * freshness test every reader applies (docs/decisions.md "D20. Price maximum age and the
 * snapshot mode"). Shared by the store and its in-process snapshot; the fee formula
 * (pricing/fee.ts) reads {@link GasPrice}.
 */

/** A gas price with the unit it is counted in. */
export interface GasPrice {
  /**
   * Price of one gas unit (EVM gas, Solana compute unit, Sui/Aptos gas unit) in units of
   * 10^-`decimals` native tokens: wei on EVM (decimals 18), micro-lamports on Solana (decimals 15),
   * MIST on Sui (9), octas on Aptos (8).
   */
  readonly price: bigint;
  /** Decimals of the unit `price` is counted in (see {@link GasPrice.price}). */
  readonly decimals: number;
}

/** Raised when a price or gas entry is missing, unreadable or older than the maximum age. */
export class MissingPriceDataError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'MissingPriceDataError';
  }
}

/** A gas price read from the store, with its age information. */
export interface GasReading extends GasPrice {
  readonly observedAt: number;
  readonly source: string;
}

/** A USD price read from the store (10^8 scale), with its age information. */
export interface UsdReading {
  readonly price: bigint;
  readonly observedAt: number;
  readonly source: string;
}

/** An origin transfer contract's percentage fee read from the store, basis points, with its age information. */
export interface ContractFeeReading {
  readonly bps: number;
  readonly observedAt: number;
  readonly source: string;
}

/** One entry as loaded: the reading, undefined when absent, or the error a malformed entry gives. */
export type Loaded<T> = T | undefined | MissingPriceDataError;

/**
 * Refuses an entry that is absent, malformed or older than `maxAgeMs` at `now`.
 * @throws MissingPriceDataError with the same details the store gives (missing, malformed, "N s old").
 */
export function requireFresh<T extends { readonly observedAt: number }>(
  label: string,
  entry: Loaded<T>,
  now: number,
  maxAgeSeconds: number,
): T {
  if (entry instanceof MissingPriceDataError) throw entry;
  if (entry === undefined) throw new MissingPriceDataError(`no ${label} data`);
  const age = now - entry.observedAt;
  if (age > maxAgeSeconds * 1000) {
    throw new MissingPriceDataError(
      `${label} data is ${Math.round(age / 1000)} s old (max ${maxAgeSeconds} s)`,
    );
  }
  return entry;
}
