/**
 * The price store: gas prices per chain and native token USD prices, each with its observation
 * time, kept in the KvStore (Redis in production) by the feeder and read by the quote routes.
 * Readers reject entries older than the configured maximum age (PRICE_MAX_AGE_SECONDS), so a quote
 * is never signed from stale data (docs/decisions.md "D20. Price maximum age and the
 * snapshot mode").
 *
 * The quote routes read an in-process {@link PriceSnapshot} of every entry instead of the store:
 * it is re-read when older than `refreshMs` (1 s), when this store writes, and on every update
 * message the feeder publishes, so a replica serves nothing older than the stored copy + 1 s, and
 * every read still checks observedAt against the maximum age. While the store does not answer
 * (Redis away), the last copy read keeps being served, each entry only while it is within the
 * maximum age: then 500 MISSING_PRICE_DATA, at once, never a quote from older prices. A re-read
 * never replaces an entry by an older, missing or malformed one: when the store comes back
 * without the prices (a Redis restarted without persistence, a flush, an eviction), each replica
 * keeps serving the entries it holds until they pass the maximum age or the feeder writes newer
 * ones (docs/decisions.md "D86. Prices survive an empty store").
 */
import type { ChainRegistry, z } from '@ctss/domain-types';
import { FenceLostError, type KvFence, type KvStore } from '@ctss/server-kit';
import type { Clock } from '../clock.js';
import type { GasPrice } from './entries.js';
import { MissingPriceDataError, requireFresh } from './entries.js';
import type { ContractFeeReading, GasReading, Loaded, UsdReading } from './entries.js';
import { ContractFeeEntry, GasEntry, UsdEntry } from './schemas.js';
import { PriceSnapshot, type SnapshotData } from './snapshot.js';

/** Options of {@link createPriceStore}. */
export interface PriceStoreOptions {
  /** Entries observed longer ago than this are rejected, seconds. */
  readonly maxAgeSeconds: number;
  readonly clock: Clock;
  /** Served chains: the snapshot holds the gas entry of each and the USD entry of each native symbol. */
  readonly registry: ChainRegistry;
  /** The in-process snapshot is re-read from the store once older than this, ms (default 1000). */
  readonly refreshMs?: number;
}

/** Read/write access to prices. Writers are the feeder; readers the quote routes and /ready. */
export interface PriceStore {
  /**
   * Stores the gas price of `domain`; with `fence`, only while the fence key holds its value
   * (the feeder's lock, docs/decisions.md "D87. A short, fenced feeder lease").
   * @throws FenceLostError when fenced and the lock is no longer held; KvUnavailableError when the store does not answer.
   */
  putGas(
    domain: number,
    gas: GasPrice,
    observedAt: number,
    source: string,
    fence?: KvFence,
  ): Promise<void>;
  /**
   * Stores the USD price (10^8 scale) of the native token `symbol`; `fence` as in {@link putGas}.
   * @throws FenceLostError when fenced and the lock is no longer held; KvUnavailableError when the store does not answer.
   */
  putUsd(
    symbol: string,
    price: bigint,
    observedAt: number,
    source: string,
    fence?: KvFence,
  ): Promise<void>;
  /**
   * Stores the percentage fee (basis points, `state().feeBP`) of the transfer contract on origin
   * `domain`; `fence` as in {@link putGas}.
   * @throws FenceLostError when fenced and the lock is no longer held; KvUnavailableError when the store does not answer.
   */
  putContractFee(
    domain: number,
    bps: number,
    observedAt: number,
    source: string,
    fence?: KvFence,
  ): Promise<void>;
  /** The fresh gas price of `domain`, read from the store. @throws MissingPriceDataError when missing or stale. */
  gas(domain: number): Promise<GasReading>;
  /** The fresh USD price of `symbol`, read from the store. @throws MissingPriceDataError when missing or stale. */
  usd(symbol: string): Promise<UsdReading>;
  /** The gas entry of `domain` without a freshness check (undefined when absent), for metrics. */
  gasRaw(domain: number): Promise<GasReading | undefined>;
  /** The USD entry of `symbol` without a freshness check (undefined when absent), for metrics. */
  usdRaw(symbol: string): Promise<UsdReading | undefined>;
  /**
   * The in-process copy of every served entry: returned as is (no promise) while it is at most
   * `refreshMs` old and nothing invalidated it, else re-read from the store (one read at a time;
   * concurrent callers share it). Its reads check freshness at read time. When the re-read fails
   * (the store does not answer), the last copy read is returned instead, and the store is not
   * tried again for `refreshMs`: requests do not wait on a store that is away.
   * @throws MissingPriceDataError (the promise) when the store does not answer and no copy was ever read.
   */
  snapshot(): PriceSnapshot | Promise<PriceSnapshot>;
  /** Marks the in-process copy out of date: the next {@link snapshot} re-reads the store. */
  invalidate(): void;
  /**
   * The entries of the last in-process copy read from the store, as read (no reload, no store
   * access, no freshness check); undefined before the first read. For metrics.
   */
  lastLoaded(): SnapshotData | undefined;
  /**
   * Keeps the in-process copy current in the background: re-read on every message on `channel`
   * (the feeder publishes one after each write) and every `refreshMs / 2`, so requests do not
   * wait for the store in the steady state. Resolves once subscribed to a function that stops it.
   * `onError` receives the first failed background read of each run of failures (requests retry
   * the read themselves and fail with the store's error while it lasts).
   */
  watch(channel: string, onError: (err: unknown) => void): Promise<() => Promise<void>>;
  /** Maximum accepted age, seconds. */
  readonly maxAgeSeconds: number;
}

/** Keys live a day; freshness is decided by observedAt, the TTL only collects garbage. */
const ENTRY_TTL_SECONDS = 86_400;

/** Parses one stored entry. @throws MissingPriceDataError when it is not JSON or does not match `schema`. */
function decodeEntry<T>(key: string, raw: string | null, schema: z.ZodType<T>): T | undefined {
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

const gasReading = (e: GasEntry | undefined): GasReading | undefined =>
  e && { price: BigInt(e.price), decimals: e.decimals, observedAt: e.observedAt, source: e.source };
const usdReading = (e: UsdEntry | undefined): UsdReading | undefined =>
  e && { price: BigInt(e.price), observedAt: e.observedAt, source: e.source };

/**
 * The newer of an entry just read and the one held in process: the read one unless it is
 * missing, malformed or observed earlier than the held one, which then stays (it still ages out
 * at read time, so keeping it never serves a price older than the maximum age).
 */
function newerEntry<T extends { readonly observedAt: number }>(
  read: Loaded<T>,
  held: Loaded<T>,
): Loaded<T> {
  if (held === undefined || held instanceof MissingPriceDataError) return read;
  if (read === undefined || read instanceof MissingPriceDataError) return held;
  return read.observedAt >= held.observedAt ? read : held;
}

/** A decoded entry, or the MissingPriceDataError a malformed one gives (kept for the reader to throw). */
function loaded<T>(decode: () => T | undefined): Loaded<T> {
  try {
    return decode();
  } catch (err) {
    if (err instanceof MissingPriceDataError) return err;
    throw err;
  }
}

const contractFeeReading = (e: ContractFeeEntry | undefined): ContractFeeReading | undefined =>
  e && { bps: e.bps, observedAt: e.observedAt, source: e.source };

/** Builds a {@link PriceStore} over `kv` (keys `gas:<domain>`, `usd:<SYMBOL>`, `cfee:<domain>`). */
export function createPriceStore(kv: KvStore, options: PriceStoreOptions): PriceStore {
  const { clock, maxAgeSeconds, registry } = options;
  const refreshMs = options.refreshMs ?? 1000;
  const domains = registry.all().map((c) => c.domain);
  const symbols = [...new Set(registry.all().map((c) => c.nativeSymbol))];

  const gasRaw = async (domain: number): Promise<GasReading | undefined> => {
    const key = `gas:${domain}`;
    return gasReading(decodeEntry(key, await kv.get(key), GasEntry));
  };
  const usdRaw = async (symbol: string): Promise<UsdReading | undefined> => {
    const key = `usd:${symbol}`;
    return usdReading(decodeEntry(key, await kv.get(key), UsdEntry));
  };

  let current: PriceSnapshot | undefined;
  let lastLoaded: SnapshotData | undefined;
  /** Bumped by every write and invalidation; a read started before a bump is not installed as current. */
  let generation = 0;
  /** The read in flight and the generation it started in. */
  let loading:
    { readonly generation: number; readonly promise: Promise<PriceSnapshot> } | undefined;
  /** The last copy read from the store, kept across invalidations: served while the store is away. */
  let lastRead: PriceSnapshot | undefined;
  /** Clock time of the last failed read, undefined after a success. */
  let failedAt: number | undefined;

  async function load(): Promise<PriceSnapshot> {
    const startedGeneration = generation;
    const loadedAt = clock();
    const [gasRows, usdRows, feeRows] = await Promise.all([
      Promise.all(domains.map((d) => kv.get(`gas:${d}`))),
      Promise.all(symbols.map((s) => kv.get(`usd:${s}`))),
      Promise.all(domains.map((d) => kv.get(`cfee:${d}`))),
    ]);
    const held = lastLoaded;
    const gas = new Map(
      domains.map((d, i) => [
        d,
        newerEntry(
          loaded(() => gasReading(decodeEntry(`gas:${d}`, gasRows[i] ?? null, GasEntry))),
          held?.gas.get(d),
        ),
      ]),
    );
    const usd = new Map(
      symbols.map((s, i) => [
        s,
        newerEntry(
          loaded(() => usdReading(decodeEntry(`usd:${s}`, usdRows[i] ?? null, UsdEntry))),
          held?.usd.get(s),
        ),
      ]),
    );
    const contractFee = new Map(
      domains.map((d, i) => [
        d,
        newerEntry(
          loaded(() =>
            contractFeeReading(decodeEntry(`cfee:${d}`, feeRows[i] ?? null, ContractFeeEntry)),
          ),
          held?.contractFee.get(d),
        ),
      ]),
    );
    lastLoaded = { gas, usd, contractFee, loadedAt };
    const snapshot = new PriceSnapshot(lastLoaded, { registry, maxAgeSeconds, clock });
    if (generation === startedGeneration) current = snapshot;
    lastRead = snapshot;
    failedAt = undefined;
    return snapshot;
  }

  /** Reads the store, sharing a read in flight unless a write happened since it started. */
  function reload(): Promise<PriceSnapshot> {
    if (loading?.generation === generation) return loading.promise;
    const entry = { generation, promise: load() };
    loading = entry;
    const clear = () => {
      if (loading === entry) loading = undefined;
    };
    entry.promise.then(clear, () => {
      clear();
      failedAt = clock();
    });
    return entry.promise;
  }

  /** The last copy read when the store failed; its reads refuse entries past the maximum age. */
  function lastReadOr(err: unknown): PriceSnapshot {
    if (lastRead) return lastRead;
    throw new MissingPriceDataError(
      `price data is unavailable: the price store does not answer (${err instanceof Error ? err.message : String(err)})`,
    );
  }

  /** Writes one entry, fenced when `fence` is given, then marks the in-process copy out of date. */
  async function put(key: string, value: string, fence: KvFence | undefined): Promise<void> {
    if (fence === undefined) await kv.set(key, value, ENTRY_TTL_SECONDS);
    else if (!(await kv.setIfHeld(key, value, ENTRY_TTL_SECONDS, fence)))
      throw new FenceLostError(fence.key);
    invalidate();
  }

  function invalidate(): void {
    generation += 1;
    current = undefined;
  }

  return {
    maxAgeSeconds,
    async putGas(domain, gas, observedAt, source, fence) {
      const entry: GasEntry = {
        price: gas.price.toString(),
        decimals: gas.decimals,
        observedAt,
        source,
      };
      await put(`gas:${domain}`, JSON.stringify(entry), fence);
    },
    async putUsd(symbol, price, observedAt, source, fence) {
      const entry: UsdEntry = { price: price.toString(), observedAt, source };
      await put(`usd:${symbol}`, JSON.stringify(entry), fence);
    },
    async putContractFee(domain, bps, observedAt, source, fence) {
      const entry: ContractFeeEntry = { bps, observedAt, source };
      await put(`cfee:${domain}`, JSON.stringify(entry), fence);
    },
    gasRaw,
    usdRaw,
    async gas(domain) {
      return requireFresh(
        `gas price of domain ${domain}`,
        await gasRaw(domain),
        clock(),
        maxAgeSeconds,
      );
    },
    async usd(symbol) {
      return requireFresh(`${symbol} USD price`, await usdRaw(symbol), clock(), maxAgeSeconds);
    },
    snapshot() {
      const now = clock();
      if (current && now >= current.loadedAt && now - current.loadedAt <= refreshMs) return current;
      if (failedAt !== undefined && now >= failedAt && now - failedAt < refreshMs) {
        if (lastRead) return lastRead;
        return Promise.reject(
          new MissingPriceDataError('price data is unavailable: the price store does not answer'),
        );
      }
      return reload().catch(lastReadOr);
    },
    invalidate,
    lastLoaded: () => lastLoaded,
    async watch(channel, onError) {
      // Report the first failure of a run only (a store outage would otherwise log twice a second).
      let failing = false;
      const refresh = () => {
        reload().then(
          () => {
            failing = false;
          },
          (err: unknown) => {
            if (!failing) onError(err);
            failing = true;
          },
        );
      };
      const unsubscribe = await kv.subscribe(channel, () => {
        invalidate();
        refresh();
      });
      const timer = setInterval(refresh, Math.max(1, Math.floor(refreshMs / 2)));
      timer.unref();
      return async () => {
        clearInterval(timer);
        await unsubscribe();
        await loading?.promise.catch(() => undefined);
      };
    },
  };
}
