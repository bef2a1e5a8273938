/**
 * The price store: gas prices per chain and native token USD prices, each with its observation
 * time, kept in the KvStore (Redis in production) by the feeder and read by the quote routes.
 * Readers reject entries older than the configured maximum age (PRICE_MAX_AGE_SECONDS), so a quote
 * is never signed from stale data (DESIGN.md "Running").
 */
import { z } from '@ctss/domain-types';
import type { KvStore } from '@ctss/server-kit';
import type { GasPrice } from './fee.js';

/** Raised when a price or gas entry is missing, unreadable or older than the maximum age. */
export class MissingPriceDataError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'MissingPriceDataError';
  }
}

const IntString = z.string().regex(/^[0-9]+$/);

/** Stored gas price of one chain: see {@link GasPrice} for units; observedAt in ms since epoch. */
export const GasEntry = z.object({
  price: IntString,
  decimals: z.number().int().min(0).max(36),
  observedAt: z.number().int().nonnegative(),
  source: z.string(),
});
/** A stored gas entry (see the schema above). */
export type GasEntry = z.infer<typeof GasEntry>;

/** Stored USD price of one native token: fixed point, 10^8 scale; observedAt in ms since epoch. */
export const UsdEntry = z.object({
  price: IntString,
  observedAt: z.number().int().nonnegative(),
  source: z.string(),
});
/** A stored USD entry (see the schema above). */
export type UsdEntry = z.infer<typeof UsdEntry>;

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

/** Options of {@link createPriceStore}. */
export interface PriceStoreOptions {
  /** Entries observed longer ago than this are rejected, seconds. */
  readonly maxAgeSeconds: number;
  /** Current time, ms since epoch. */
  readonly clock: () => number;
}

/** Read/write access to prices. Writers are the feeder; readers the quote routes and /ready. */
export interface PriceStore {
  /** Stores the gas price of `domain`. */
  putGas(domain: number, gas: GasPrice, observedAt: number, source: string): Promise<void>;
  /** Stores the USD price (10^8 scale) of the native token `symbol`. */
  putUsd(symbol: string, price: bigint, observedAt: number, source: string): Promise<void>;
  /** The fresh gas price of `domain`. @throws MissingPriceDataError when missing or stale. */
  gas(domain: number): Promise<GasReading>;
  /** The fresh USD price of `symbol`. @throws MissingPriceDataError when missing or stale. */
  usd(symbol: string): Promise<UsdReading>;
  /** The gas entry of `domain` without a freshness check (undefined when absent), for metrics. */
  gasRaw(domain: number): Promise<GasReading | undefined>;
  /** The USD entry of `symbol` without a freshness check (undefined when absent), for metrics. */
  usdRaw(symbol: string): Promise<UsdReading | undefined>;
  /** Maximum accepted age, seconds. */
  readonly maxAgeSeconds: number;
}

/** Keys live a day; freshness is decided by observedAt, the TTL only collects garbage. */
const ENTRY_TTL_SECONDS = 86_400;

/** Builds a {@link PriceStore} over `kv` (keys `gas:<domain>` and `usd:<SYMBOL>`). */
export function createPriceStore(kv: KvStore, options: PriceStoreOptions): PriceStore {
  const maxAgeMs = options.maxAgeSeconds * 1000;

  async function read<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const raw = await kv.get(key);
    if (raw === null) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new MissingPriceDataError(`price entry ${key} is not JSON`);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) throw new MissingPriceDataError(`price entry ${key} is malformed`);
    return result.data;
  }

  function requireFresh(key: string, observedAt: number | undefined): void {
    if (observedAt === undefined) throw new MissingPriceDataError(`no ${key} data`);
    const age = options.clock() - observedAt;
    if (age > maxAgeMs) {
      throw new MissingPriceDataError(`${key} data is ${Math.round(age / 1000)} s old (max ${options.maxAgeSeconds} s)`);
    }
  }

  const gasRaw = async (domain: number): Promise<GasReading | undefined> => {
    const e = await read(`gas:${domain}`, GasEntry);
    return e && { price: BigInt(e.price), decimals: e.decimals, observedAt: e.observedAt, source: e.source };
  };
  const usdRaw = async (symbol: string): Promise<UsdReading | undefined> => {
    const e = await read(`usd:${symbol}`, UsdEntry);
    return e && { price: BigInt(e.price), observedAt: e.observedAt, source: e.source };
  };

  return {
    maxAgeSeconds: options.maxAgeSeconds,
    async putGas(domain, gas, observedAt, source) {
      const entry: GasEntry = { price: gas.price.toString(), decimals: gas.decimals, observedAt, source };
      await kv.set(`gas:${domain}`, JSON.stringify(entry), ENTRY_TTL_SECONDS);
    },
    async putUsd(symbol, price, observedAt, source) {
      const entry: UsdEntry = { price: price.toString(), observedAt, source };
      await kv.set(`usd:${symbol}`, JSON.stringify(entry), ENTRY_TTL_SECONDS);
    },
    gasRaw,
    usdRaw,
    async gas(domain) {
      const e = await gasRaw(domain);
      requireFresh(`gas price of domain ${domain}`, e?.observedAt);
      return e as GasReading;
    },
    async usd(symbol) {
      const e = await usdRaw(symbol);
      requireFresh(`${symbol} USD price`, e?.observedAt);
      return e as UsdReading;
    },
  };
}
