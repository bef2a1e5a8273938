/**
 * An in-process copy of every price entry the quote routes read (docs/decisions.md "D21. Single feeder and the in-process price copy"): the gas
 * entry of each served domain and the USD entry of each native token, as read from the store at
 * one moment. Reads are synchronous and still check each entry's observedAt against the maximum
 * age at the time of the read, so a copy never serves an entry the store would refuse.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import { USD_DECIMALS, fixedToNumber } from '../fixed-point.js';
import type { Clock } from '../clock.js';
import {
  MissingPriceDataError,
  requireFresh,
  type ContractFeeReading,
  type GasReading,
  type Loaded,
  type UsdReading,
} from './entries.js';

/** What a snapshot is built from (see {@link PriceSnapshot}). */
export interface SnapshotData {
  /** Gas entry per served domain. */
  readonly gas: ReadonlyMap<number, Loaded<GasReading>>;
  /** USD entry per native symbol. */
  readonly usd: ReadonlyMap<string, Loaded<UsdReading>>;
  /** Transfer contract percentage fee entry per served (origin) domain. */
  readonly contractFee: ReadonlyMap<number, Loaded<ContractFeeReading>>;
  /** Clock time the read from the store started, ms since epoch. */
  readonly loadedAt: number;
}

/** Options of {@link PriceSnapshot}. */
export interface SnapshotOptions {
  readonly registry: ChainRegistry;
  /** Entries observed longer ago than this are refused, seconds (PRICE_MAX_AGE_SECONDS). */
  readonly maxAgeSeconds: number;
  readonly clock: Clock;
}

/** The `/tokenPrices` body and the clock interval in which it stays exact. */
interface TokenPricesBody {
  readonly json: string;
  readonly builtAt: number;
  /** Last ms at which every included price is still fresh. */
  readonly validUntil: number;
}

/** Prices as read from the store at {@link loadedAt}; immutable. */
export class PriceSnapshot {
  readonly loadedAt: number;
  readonly #data: SnapshotData;
  readonly #opts: SnapshotOptions;
  #tokenPrices: TokenPricesBody | undefined;
  readonly #derived = new Map<string, { readonly oldestObservation: number }>();

  constructor(data: SnapshotData, opts: SnapshotOptions) {
    this.#data = data;
    this.#opts = opts;
    this.loadedAt = data.loadedAt;
  }

  /** The fresh gas price of `domain`. @throws MissingPriceDataError when missing, malformed or stale. */
  gas(domain: number): GasReading {
    return requireFresh(
      `gas price of domain ${domain}`,
      this.#data.gas.get(domain),
      this.#opts.clock(),
      this.#opts.maxAgeSeconds,
    );
  }

  /** The fresh USD price (10^8 scale) of `symbol`. @throws MissingPriceDataError when missing, malformed or stale. */
  usd(symbol: string): UsdReading {
    return requireFresh(
      `${symbol} USD price`,
      this.#data.usd.get(symbol),
      this.#opts.clock(),
      this.#opts.maxAgeSeconds,
    );
  }

  /**
   * The percentage fee of the transfer contract on origin `domain` (basis points), fresh by the
   * same maximum age as the prices.
   * @throws MissingPriceDataError when missing, malformed or stale.
   */
  contractFee(domain: number): ContractFeeReading {
    return requireFresh(
      `transfer contract fee of domain ${domain}`,
      this.#data.contractFee.get(domain),
      this.#opts.clock(),
      this.#opts.maxAgeSeconds,
    );
  }

  /**
   * A value computed from this snapshot's entries (a route's fee), kept under `key` and reused
   * while the oldest entry it read is fresh: the same test {@link requireFresh} makes of each
   * entry at read time, so a reused value is one `compute` would still return. Otherwise (first
   * use, or an entry aged out) `compute` runs again, reading the entries, and throws the
   * entries' MissingPriceDataError when one is missing or stale; a throw is not kept.
   *
   * @param key names the value among this snapshot's derived values (e.g. the route).
   * @param compute reads the entries through {@link gas} and {@link usd}; `oldestObservation` is
   *   the oldest observedAt among them, ms since epoch.
   * @throws whatever `compute` throws (MissingPriceDataError for missing or stale data).
   */
  derived<T extends { readonly oldestObservation: number }>(key: string, compute: () => T): T {
    const hit = this.#derived.get(key) as T | undefined;
    if (hit !== undefined) {
      const age = this.#opts.clock() - hit.oldestObservation;
      if (age <= this.#opts.maxAgeSeconds * 1000) return hit;
    }
    const value = compute();
    this.#derived.set(key, value);
    return value;
  }

  /**
   * The `GET /tokenPrices` body as JSON text: domain id to native token USD price (a float, as in
   * docs/api.md "Token prices"), tokens whose price is missing or stale left out. Built once and reused
   * while every included price stays fresh (an excluded one cannot become fresh again without
   * a new snapshot).
   * @throws MissingPriceDataError when no price at all is fresh.
   */
  tokenPricesJson(): string {
    const now = this.#opts.clock();
    const cached = this.#tokenPrices;
    if (cached && now >= cached.builtAt && now <= cached.validUntil) return cached.json;
    const body: Record<string, number> = {};
    let validUntil = Infinity;
    let count = 0;
    const maxAgeMs = this.#opts.maxAgeSeconds * 1000;
    for (const chain of this.#opts.registry.all()) {
      const entry = this.#data.usd.get(chain.nativeSymbol);
      if (
        entry === undefined ||
        entry instanceof MissingPriceDataError ||
        now - entry.observedAt > maxAgeMs
      )
        continue;
      body[String(chain.domain)] = fixedToNumber(entry.price, USD_DECIMALS);
      validUntil = Math.min(validUntil, entry.observedAt + maxAgeMs);
      count += 1;
    }
    if (count === 0) throw new MissingPriceDataError('no fresh token prices');
    this.#tokenPrices = { json: JSON.stringify(body), builtAt: now, validUntil };
    return this.#tokenPrices.json;
  }
}
