/**
 * The key-value store both services share: Redis in production (ioredis), an in-process store
 * with the same interface when no REDIS_URL is configured (DESIGN.md "Running"). Keys and
 * channels are namespaced by `prefix`. TTLs are whole seconds.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** A message handler for {@link KvStore.subscribe}. */
export type MessageHandler = (message: string) => void;

/** Key-value operations with expiry, atomic take, owner-checked locks and pub/sub. */
export interface KvStore {
  readonly kind: 'redis' | 'memory';
  /** The underlying ioredis client (for rate-limit-redis), undefined for the in-process store. */
  readonly redis: Redis | undefined;
  get(key: string): Promise<string | null>;
  /** Sets `key`; with `ttlSeconds` it expires after that many seconds. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets `key` only when absent (SET NX EX); true when set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Atomically reads and deletes `key` (GETDEL): a value is taken at most once. */
  getDel(key: string): Promise<string | null>;
  /** Deletes `key`; the number of keys removed (0 or 1). */
  del(key: string): Promise<number>;
  /** Deletes `key` only if it still holds `value` (lock release by its owner); true when deleted. */
  delIfEquals(key: string, value: string): Promise<boolean>;
  /** Re-arms the TTL of `key` only if it still holds `value` (lock renewal); true when renewed. */
  expireIfEquals(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Publishes `message` on `channel` to every subscriber of every replica. */
  publish(channel: string, message: string): Promise<void>;
  /** Subscribes to `channel`; resolves once subscribed; returns an async unsubscribe. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /** Round-trips to the store; throws when unreachable. */
  ping(): Promise<void>;
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** Options of {@link createKvStore}. */
export interface KvStoreOptions {
  /** `redis://` URL; absent means the in-process store. */
  redisUrl?: string | undefined;
  /** Namespace for keys and channels, e.g. `gas:`. */
  prefix: string;
}

const DEL_IF_EQUALS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const EXPIRE_IF_EQUALS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end`;

/** Creates the Redis-backed store when `redisUrl` is given, else the in-process one. */
export function createKvStore(opts: KvStoreOptions): KvStore {
  return opts.redisUrl
    ? createRedisKvStore(opts.redisUrl, opts.prefix)
    : createMemoryKvStore(opts.prefix);
}

function createRedisKvStore(url: string, prefix: string): KvStore {
  const client = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    // Commands issued in one event-loop turn (e.g. the rate-limit EVALSHA of every request that
    // arrived together) go out in one write and come back in one read: fewer syscalls per
    // request on both sides (packages/bench/FINDINGS.md).
    enableAutoPipelining: true,
  });
  let subscriber: Redis | undefined;
  const handlers = new Map<string, Set<MessageHandler>>();
  const k = (key: string) => prefix + key;

  const getSubscriber = (): Redis => {
    if (!subscriber) {
      // No auto-pipelining on the subscriber connection (redis/ioredis#1505).
      subscriber = client.duplicate({ enableAutoPipelining: false });
      subscriber.on('message', (channel: string, message: string) => {
        for (const handler of handlers.get(channel) ?? []) handler(message);
      });
    }
    return subscriber;
  };

  return {
    kind: 'redis',
    redis: client,
    get: (key) => client.get(k(key)),
    async set(key, value, ttlSeconds) {
      if (ttlSeconds !== undefined) await client.set(k(key), value, 'EX', ttlSeconds);
      else await client.set(k(key), value);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await client.set(k(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    getDel: (key) => client.getdel(k(key)),
    del: (key) => client.del(k(key)),
    async delIfEquals(key, value) {
      return (await client.eval(DEL_IF_EQUALS, 1, k(key), value)) === 1;
    },
    async expireIfEquals(key, value, ttlSeconds) {
      return (await client.eval(EXPIRE_IF_EQUALS, 1, k(key), value, String(ttlSeconds))) === 1;
    },
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    async subscribe(channel, handler) {
      const full = k(channel);
      const sub = getSubscriber();
      let set = handlers.get(full);
      if (!set) {
        set = new Set();
        handlers.set(full, set);
        await sub.subscribe(full);
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(full);
        current?.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(full);
          await sub.unsubscribe(full);
        }
      };
    },
    async ping() {
      await client.ping();
    },
    async close() {
      await Promise.all([client.quit(), subscriber?.quit()]);
    },
  };
}

interface MemoryEntry {
  value: string;
  expiresAt: number | undefined;
}

/** The in-process store: a Map with lazy expiry and an EventEmitter for pub/sub. */
export function createMemoryKvStore(prefix = ''): KvStore {
  const entries = new Map<string, MemoryEntry>();
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const k = (key: string) => prefix + key;
  const live = (key: string): MemoryEntry | undefined => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const expiry = (ttlSeconds: number | undefined) =>
    ttlSeconds === undefined ? undefined : Date.now() + ttlSeconds * 1000;

  return {
    kind: 'memory',
    redis: undefined,
    get: (key) => Promise.resolve(live(k(key))?.value ?? null),
    set(key, value, ttlSeconds) {
      entries.set(k(key), { value, expiresAt: expiry(ttlSeconds) });
      return Promise.resolve();
    },
    setIfAbsent(key, value, ttlSeconds) {
      if (live(k(key))) return Promise.resolve(false);
      entries.set(k(key), { value, expiresAt: expiry(ttlSeconds) });
      return Promise.resolve(true);
    },
    getDel(key) {
      const entry = live(k(key));
      entries.delete(k(key));
      return Promise.resolve(entry?.value ?? null);
    },
    del(key) {
      const existed = live(k(key)) !== undefined;
      entries.delete(k(key));
      return Promise.resolve(existed ? 1 : 0);
    },
    delIfEquals(key, value) {
      if (live(k(key))?.value !== value) return Promise.resolve(false);
      entries.delete(k(key));
      return Promise.resolve(true);
    },
    expireIfEquals(key, value, ttlSeconds) {
      const entry = live(k(key));
      if (entry?.value !== value) return Promise.resolve(false);
      entry.expiresAt = expiry(ttlSeconds);
      return Promise.resolve(true);
    },
    publish(channel, message) {
      // Deliver asynchronously, as Redis would, so publishers never run subscriber code inline.
      setImmediate(() => bus.emit(k(channel), message));
      return Promise.resolve();
    },
    subscribe(channel, handler) {
      const listener = (message: string) => handler(message);
      bus.on(k(channel), listener);
      return Promise.resolve(() => {
        bus.off(k(channel), listener);
        return Promise.resolve();
      });
    },
    ping: () => Promise.resolve(),
    close() {
      bus.removeAllListeners();
      entries.clear();
      return Promise.resolve();
    },
  };
}
