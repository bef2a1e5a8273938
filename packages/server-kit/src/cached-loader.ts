/**
 * Read-through caching with single-flight: under concurrent misses of one key, one loader runs
 * per process and the others await it (docs/architecture.md "Caching";
 * docs/decisions.md "D31. Cache lifetimes and single-flight"). Values are stored as strings in the
 * {@link KvStore} with a TTL, so replicas share them through Redis.
 *
 * Two ways of degrading, so a lost backend costs freshness before it costs answers:
 * - the store (Redis) fails: the cache is bypassed and every call loads from the source; the
 *   outage is logged once when it starts and once when the store answers again.
 * - the source fails with a dependency error (a 503 DEPENDENCY_UNAVAILABLE, e.g. the database is
 *   down): the last good value of the key kept in process (a bounded LRU, `staleEntries`) is
 *   served instead, and the result says it is stale (see {@link cacheStatus}).
 */
import type { KvStore } from './kv.js';
import type { Logger } from './logger.js';
import { toHttpProblem, type ProblemClassifier } from './problem.js';

/** How a cached value is written to and read from the store. */
export interface Codec<T> {
  encode(value: T): string;
  decode(text: string): T;
}

/**
 * Where a value came from: `hit` the shared store, `miss` the loader (the value is now stored),
 * `stale` the last good value kept in process, because the loader failed with a dependency error.
 */
export type CacheOutcome = 'hit' | 'miss' | 'stale';

/** A value and how it was obtained ({@link CachedLoader.lookup}). */
export interface CacheLookup<T> {
  readonly value: T;
  readonly outcome: CacheOutcome;
  /**
   * `stale` only: seconds (whole) of freshness left, TTL minus the time since the copy was
   * obtained (loaded, or read from the store); negative once that exceeds the TTL (RFC 9211 section 2.2 `ttl`).
   */
  readonly ttl?: number;
}

/**
 * A read-through loader: `(key, loader, codec) => value`, and `lookup` with the same arguments,
 * which also says whether the value is a hit, a fresh load or a stale copy.
 *
 * @throws the loader's error when there is no cached value and (for a dependency error) no stale
 *         copy of the key.
 */
export interface CachedLoader {
  <T>(key: string, loader: () => Promise<T>, codec: Codec<T>): Promise<T>;
  lookup<T>(key: string, loader: () => Promise<T>, codec: Codec<T>): Promise<CacheLookup<T>>;
}

/** Options of {@link createCachedLoader}. */
export interface CachedLoaderOptions {
  /** Lifetime of a stored value, seconds; 0 disables the shared cache (every call loads). */
  ttlSeconds: number;
  logger?: Logger;
  /**
   * Keys whose last good value is kept in process for serving stale (least recently used
   * evicted first); 0 or absent keeps none.
   */
  staleEntries?: number;
  /**
   * Oldest stale copy served, seconds since it was obtained (loaded, or read from the store)
   * (default one day).
   */
  staleMaxAgeSeconds?: number;
  /**
   * The app's error mapping (the same one its problem handler uses): a loader error it maps to
   * 503 DEPENDENCY_UNAVAILABLE lets a stale copy be served. Without it only server-kit's own
   * `DependencyUnavailableError` does.
   */
  classifyError?: ProblemClassifier;
}

/** The last good value of a key and when it was obtained (epoch milliseconds). */
interface StaleCopy {
  readonly value: unknown;
  readonly at: number;
}

const DEFAULT_STALE_MAX_AGE_SECONDS = 86_400;

/**
 * Creates a cached loader over `kv` (see the module comment for how it degrades). `ttlSeconds` 0
 * disables the shared cache (calls still share one in-flight load, and stale copies are still kept
 * when `staleEntries` is set).
 */
export function createCachedLoader(kv: KvStore, opts: CachedLoaderOptions): CachedLoader {
  const inFlight = new Map<string, Promise<unknown>>();
  const staleEntries = opts.staleEntries ?? 0;
  const staleMaxAgeMs = (opts.staleMaxAgeSeconds ?? DEFAULT_STALE_MAX_AGE_SECONDS) * 1000;
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
  const stale = new Map<string, StaleCopy>();
  let storeDown = false;

  const remember = (key: string, value: unknown): void => {
    if (staleEntries <= 0) return;
    stale.delete(key);
    stale.set(key, { value, at: Date.now() });
    if (stale.size > staleEntries) stale.delete(stale.keys().next().value!);
  };

  const storeFailed = (err: unknown, key: string, operation: 'read' | 'write'): void => {
    if (storeDown) return;
    storeDown = true;
    opts.logger?.warn(
      { err, key, operation },
      'cache store unavailable: loading from source until it answers again',
    );
  };
  const storeAnswered = (): void => {
    if (!storeDown) return;
    storeDown = false;
    opts.logger?.info('cache store answers again');
  };

  const isDependencyError = (err: unknown): boolean =>
    toHttpProblem(err, opts.classifyError).code === 'DEPENDENCY_UNAVAILABLE';

  const load = <T>(key: string, loader: () => Promise<T>, codec: Codec<T>): Promise<T> => {
    const pending = inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const loading = (async () => {
      try {
        const value = await loader();
        remember(key, value);
        if (opts.ttlSeconds > 0) {
          await kv.set(key, codec.encode(value), opts.ttlSeconds).then(storeAnswered, (err) => {
            storeFailed(err, key, 'write');
          });
        }
        return value;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, loading);
    return loading;
  };

  const lookup = async <T>(
    key: string,
    loader: () => Promise<T>,
    codec: Codec<T>,
  ): Promise<CacheLookup<T>> => {
    if (opts.ttlSeconds > 0) {
      let hit: string | null = null;
      try {
        hit = await kv.get(key);
        storeAnswered();
      } catch (err) {
        storeFailed(err, key, 'read');
      }
      if (hit !== null) {
        const value = codec.decode(hit);
        remember(key, value);
        return { value, outcome: 'hit' };
      }
    }
    try {
      return { value: await load(key, loader, codec), outcome: 'miss' };
    } catch (err) {
      const copy = stale.get(key);
      const age = copy ? Date.now() - copy.at : Infinity;
      if (copy === undefined || age > staleMaxAgeMs || !isDependencyError(err)) throw err;
      return {
        value: copy.value as T,
        outcome: 'stale',
        ttl: Math.floor(opts.ttlSeconds - age / 1000),
      };
    }
  };

  const cached = async <T>(key: string, loader: () => Promise<T>, codec: Codec<T>): Promise<T> =>
    (await lookup(key, loader, codec)).value;
  const loaderWithLookup: CachedLoader = Object.assign(cached, { lookup });
  return loaderWithLookup;
}

/**
 * The RFC 9211 `Cache-Status` value of a lookup by the cache named `cacheName`:
 * `<name>; hit`, `<name>; fwd=miss` (loaded from the source), or for a stale copy served because the source
 * failed `<name>; fwd=stale; ttl=<seconds>` (the request went forward, the source did not
 * answer, and the stored response was used; `ttl` is negative once past its lifetime).
 */
export function cacheStatus(cacheName: string, result: CacheLookup<unknown>): string {
  switch (result.outcome) {
    case 'hit':
      return `${cacheName}; hit`;
    case 'miss':
      return `${cacheName}; fwd=miss`;
    case 'stale':
      return `${cacheName}; fwd=stale; ttl=${result.ttl ?? 0}`;
  }
}

/** Identity codec: cache a response body that is already serialized (keeps bigints exact). */
export const textCodec: Codec<string> = { encode: (v) => v, decode: (t) => t };
