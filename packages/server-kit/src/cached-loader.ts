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
 *   down): the last good value of the key kept in process (an LRU bounded by `staleEntries` and
 *   `staleMaxBytes`, lru-cache) is served instead, and the result says it is stale (see
 *   {@link cacheStatus}).
 */
import { LRUCache } from 'lru-cache';
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
   * Most characters of keys and encoded values kept for serving stale (default
   * {@link DEFAULT_STALE_MAX_BYTES}); a value larger than that is not kept.
   */
  staleMaxBytes?: number;
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

/** The last good value of a key, when it was obtained (epoch milliseconds) and its encoded size. */
interface StaleCopy {
  readonly value: unknown;
  readonly at: number;
  readonly size: number;
}

const DEFAULT_STALE_MAX_AGE_SECONDS = 86_400;

/**
 * Default bound of the stale copies, characters of keys and encoded values (8 Mi; cached bodies
 * are JSON, mostly ASCII, so about as many bytes): docs/operations.md "Memory".
 */
export const DEFAULT_STALE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Creates a cached loader over `kv` (see the module comment for how it degrades). `ttlSeconds` 0
 * disables the shared cache (calls still share one in-flight load, and stale copies are still kept
 * when `staleEntries` is set).
 */
export function createCachedLoader(kv: KvStore, opts: CachedLoaderOptions): CachedLoader {
  const inFlight = new Map<string, Promise<unknown>>();
  const staleEntries = opts.staleEntries ?? 0;
  const staleMaxAgeMs = (opts.staleMaxAgeSeconds ?? DEFAULT_STALE_MAX_AGE_SECONDS) * 1000;
  const stale =
    staleEntries > 0
      ? new LRUCache<string, StaleCopy>({
          max: staleEntries,
          maxSize: opts.staleMaxBytes ?? DEFAULT_STALE_MAX_BYTES,
          sizeCalculation: (copy, key) => copy.size + key.length,
        })
      : undefined;
  let storeDown = false;

  const remember = <T>(key: string, value: T, codec: Codec<T>, encoded?: string): void => {
    if (!stale) return;
    const size = (encoded ?? (typeof value === 'string' ? value : codec.encode(value))).length;
    stale.set(key, { value, at: Date.now(), size });
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
        const encoded = opts.ttlSeconds > 0 ? codec.encode(value) : undefined;
        remember(key, value, codec, encoded);
        if (encoded !== undefined) {
          await kv.set(key, encoded, opts.ttlSeconds).then(storeAnswered, (err) => {
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
        remember(key, value, codec, hit);
        return { value, outcome: 'hit' };
      }
    }
    try {
      return { value: await load(key, loader, codec), outcome: 'miss' };
    } catch (err) {
      const copy = stale?.get(key);
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
