/**
 * Read-through caching with single-flight: under concurrent misses of one key, one loader runs
 * per process and the others await it (DESIGN.md "Caching"). Values are stored as strings in the
 * {@link KvStore} with a TTL, so replicas share them through Redis.
 */
import type { KvStore } from './kv.js';
import type { Logger } from './logger.js';

/** How a cached value is written to and read from the store. */
export interface Codec<T> {
  encode(value: T): string;
  decode(text: string): T;
}

/** A read-through loader: `(key, loader, codec) => value`. */
export type CachedLoader = <T>(
  key: string,
  loader: () => Promise<T>,
  codec: Codec<T>,
) => Promise<T>;

/**
 * Creates a cached loader over `kv`. `ttlSeconds` 0 disables caching (every call loads; calls
 * still share one in-flight load). A store failure degrades to loading, logged as a warning.
 */
export function createCachedLoader(
  kv: KvStore,
  opts: { ttlSeconds: number; logger?: Logger },
): CachedLoader {
  const inFlight = new Map<string, Promise<unknown>>();

  return async <T>(key: string, loader: () => Promise<T>, codec: Codec<T>): Promise<T> => {
    if (opts.ttlSeconds > 0) {
      try {
        const hit = await kv.get(key);
        if (hit !== null) return codec.decode(hit);
      } catch (err) {
        opts.logger?.warn({ err, key }, 'cache read failed; loading from source');
      }
    }
    const pending = inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const load = (async () => {
      try {
        const value = await loader();
        if (opts.ttlSeconds > 0) {
          await kv.set(key, codec.encode(value), opts.ttlSeconds).catch((err: unknown) => {
            opts.logger?.warn({ err, key }, 'cache write failed');
          });
        }
        return value;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, load);
    return load;
  };
}

/** Identity codec: cache a response body that is already serialized (keeps bigints exact). */
export const textCodec: Codec<string> = { encode: (v) => v, decode: (t) => t };
