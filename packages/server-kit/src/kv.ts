/**
 * The key-value store both services share: Redis in production (node-redis), an in-process store
 * with the same interface when no REDIS_URL is configured (README.md "Configuration"). Keys and
 * channels are namespaced by `prefix`. TTLs are whole seconds.
 *
 * Redis is a dependency that can vanish: every command is bounded by {@link KV_COMMAND_TIMEOUT_MS}
 * and fails at once while the connection is down (no offline queue), with a
 * {@link KvUnavailableError} (503 DEPENDENCY_UNAVAILABLE when it reaches the problem handler). The
 * client reconnects forever with capped backoff; an outage is logged once when it starts and once
 * when it ends.
 */
import { EventEmitter } from 'node:events';
import { createClient, ErrorReply, RESP_TYPES } from 'redis';
import type { Logger } from './logger.js';
import { createLogger } from './logger.js';
import { DependencyUnavailableError } from './problem.js';
import { withTimeout } from './timeout.js';

/** A message handler for {@link KvStore.subscribe}. */
export type MessageHandler = (message: string) => void;

/** Key-value operations with expiry, atomic take, owner-checked locks and pub/sub. */
export interface KvStore {
  readonly kind: 'redis' | 'memory';
  /** The raw Redis command channel (for rate-limit-redis), undefined for the in-process store. */
  readonly redis: RedisConnection | undefined;
  /**
   * The value of `key`, null when absent. Every operation of the Redis store rejects with
   * {@link KvUnavailableError} when Redis is down or does not answer within the command timeout.
   */
  get(key: string): Promise<string | null>;
  /**
   * The value of `key` as its stored bytes (no UTF-8 decoding), null when absent: for large values
   * sent on as they are (node-redis maps the reply's blob string to a Buffer).
   */
  getBytes(key: string): Promise<Buffer | null>;
  /** Sets `key`; with `ttlSeconds` it expires after that many seconds. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /**
   * Sets `key` to `value`'s bytes as they are (binary data such as a compressed body, read back
   * with {@link KvStore.getBytes}); with `ttlSeconds` it expires after that many seconds.
   */
  setBytes(key: string, value: Buffer, ttlSeconds?: number): Promise<void>;
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
  /**
   * A fenced write: sets `key` to `value` for `ttlSeconds` only while `fence.key` holds
   * `fence.value` (the writer still owns its lock), in one atomic step (Lua on Redis). A writer
   * whose lease was lost and taken over cannot overwrite the new owner's data. True when set.
   */
  setIfHeld(key: string, value: string, ttlSeconds: number, fence: KvFence): Promise<boolean>;
  /** Publishes `message` on `channel` to every subscriber of every replica. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Subscribes to `channel`; returns an async unsubscribe. Resolves once subscribed while Redis is
   * up; while it is down, at once: the subscription is made when it returns, and every
   * subscription is renewed after each reconnection.
   * @throws KvUnavailableError when Redis is up but does not confirm within the command timeout.
   */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /** Round-trips to the store; throws when unreachable. */
  ping(): Promise<void>;
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** A lock key and the token its owner stored there: the condition of {@link KvStore.setIfHeld}. */
export interface KvFence {
  readonly key: string;
  readonly value: string;
}

/** A fenced write ({@link KvStore.setIfHeld}) was refused: the writer no longer holds its lock. */
export class FenceLostError extends Error {
  constructor(readonly fenceKey: string) {
    super(`the lock ${fenceKey} is no longer held by this writer; write refused`);
    this.name = 'FenceLostError';
  }
}

/** Options of {@link createKvStore}. */
export interface KvStoreOptions {
  /** `redis://` URL; absent means the in-process store. */
  redisUrl?: string | undefined;
  /** Namespace for keys and channels, e.g. `gas:`. */
  prefix: string;
  /** Where connection loss and recovery are logged (default: a pino logger named `kv`). */
  logger?: Logger | undefined;
}

/**
 * The raw command channel of the Redis store, for rate-limit-redis (`sendCommand`) and for code
 * that must know whether Redis is reachable right now without waiting on it.
 */
export interface RedisConnection {
  /** True while connected and ready: a command sent now reaches Redis. */
  readonly ready: boolean;
  /**
   * True while Redis refuses this process's credentials (`WRONGPASS`, `NOAUTH`: a wrong password
   * or user in REDIS_URL, a configuration error of this replica, not an outage); false once a
   * connection is ready again. Logged once at error level when it starts.
   */
  readonly credentialsRefused: boolean;
  /**
   * Sends one command as its words (`['EVALSHA', sha, '1', key, '60000']`); keys are NOT prefixed.
   * Resolves to the reply as node-redis decodes it (strings, numbers, arrays).
   * @throws KvUnavailableError when Redis is down or does not answer within the command timeout;
   *   a Redis error reply (e.g. `NOSCRIPT`) as node-redis's `ErrorReply`.
   */
  sendCommand(args: readonly string[]): Promise<unknown>;
  /**
   * Calls `listener` each time the connection becomes ready after being down (not on the first
   * connection); returns a function that removes it.
   */
  onReconnect(listener: () => void): () => void;
}

/** Redis is down or did not answer in time: 503 DEPENDENCY_UNAVAILABLE with `Retry-After`. */
export class KvUnavailableError extends DependencyUnavailableError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('Redis', KV_RETRY_AFTER_SECONDS);
    this.name = 'KvUnavailableError';
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** Longest wait for one Redis command (or, at start-up, for the first connection), ms. */
export const KV_COMMAND_TIMEOUT_MS = 500;

/**
 * Most commands one Redis connection holds unwritten or unanswered; past it a command fails at once
 * (node-redis `commandsQueueMaxLength`) instead of queueing behind a stalled server.
 */
export const KV_QUEUE_MAX_LENGTH = 10_000;

/** Longest wait for a TCP connection to Redis to open, ms. */
export const KV_CONNECT_TIMEOUT_MS = 1000;
/**
 * Reconnection backoff: 50 ms doubling per attempt, capped at this, ms; retried forever. The cap
 * bounds recovery: a returning Redis is reconnected within about half a second
 * (docs/operations.md), at two connection attempts a second per client while it is away.
 */
export const KV_RECONNECT_MAX_DELAY_MS = 500;
/** `Retry-After` of a {@link KvUnavailableError}, seconds: about one capped reconnection delay. */
export const KV_RETRY_AFTER_SECONDS = 1;

const DEL_IF_EQUALS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const SET_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3]) return 1 else return 0 end`;
const EXPIRE_IF_EQUALS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end`;

/** Redis error replies to AUTH (or to a command without it) that mean the credentials are wrong. */
const CREDENTIALS_REFUSED = /^(WRONGPASS|NOAUTH|ERR invalid password|ERR AUTH)/;

/**
 * Capped exponential backoff with jitter (node-redis `socket.reconnectStrategy`): never gives up,
 * so the store heals by itself once Redis is back.
 */
function reconnectDelay(retries: number): number {
  const base = Math.min(50 * 2 ** Math.min(retries, 10), KV_RECONNECT_MAX_DELAY_MS);
  return Math.round(base / 2 + Math.random() * (base / 2));
}

/** Creates the Redis-backed store when `redisUrl` is given, else the in-process one. */
export function createKvStore(opts: KvStoreOptions): KvStore {
  return opts.redisUrl
    ? createRedisKvStore(opts.redisUrl, opts.prefix, opts.logger ?? createLogger({ name: 'kv' }))
    : createMemoryKvStore(opts.prefix);
}

/** The message of an error-like value, for a log line (never a stack per retry). */
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A command's failure as the store reports it: Redis's error replies as they are, else unavailable. */
const asKvError = (err: unknown): Error =>
  err instanceof ErrorReply || err instanceof KvUnavailableError
    ? err
    : new KvUnavailableError(messageOf(err), { cause: err });

/** Rejects with KvUnavailableError unless `promise` settles within `ms`; Redis error replies pass through. */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  return withTimeout(promise, ms, asKvError);
}

/** The first connection attempt of a node-redis client, to wait on (bounded) before giving up. */
interface FirstConnection {
  /** Resolves at the first `ready` or `error` event, or after the command timeout, whichever is first. */
  wait(): Promise<void>;
}

/** Watches the first connection attempt of `client` (call before `connect`). */
function firstConnection(client: EventEmitter): FirstConnection {
  let settled = false;
  const first = new Promise<void>((resolve) => {
    const done = () => {
      settled = true;
      resolve();
    };
    client.once('ready', done);
    client.once('error', done);
  });
  return {
    wait: () =>
      settled ? Promise.resolve() : bounded(first, KV_COMMAND_TIMEOUT_MS).catch(() => undefined),
  };
}

/** The members of a node-redis client (or its duplicate) that closing it uses. */
interface ClosableClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  close(): Promise<unknown>;
  destroy(): void;
  once(event: 'ready', listener: () => void): unknown;
}

/**
 * Closes a node-redis client for good: gracefully when ready, else by destroying its socket.
 * node-redis 6 lets a client destroyed during its connection handshake turn ready afterwards,
 * holding a socket (and the process) open; such a client is destroyed again when that happens.
 */
async function shut(client: ClosableClient): Promise<void> {
  if (client.isReady) {
    await client.close().catch(() => client.destroy());
    return;
  }
  client.once('ready', () => {
    try {
      client.destroy();
    } catch {
      // already closed: nothing holds the socket
    }
  });
  if (client.isOpen) client.destroy();
}

function createRedisKvStore(url: string, prefix: string, logger: Logger): KvStore {
  // Commands sent in one event-loop turn (e.g. the rate-limit EVALSHA of every request that
  // arrived together) go out in one write: node-redis batches its queue once per turn.
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: KV_CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelay },
    // Each command's wait is bounded by `bounded` below (KV_COMMAND_TIMEOUT_MS). node-redis 6's
    // own default command timeout (5 s) arms an `AbortSignal.timeout` per command, which lives
    // its 5 s after the reply; opted out as node-redis's v5-to-v6 guide shows (docs/decisions.md
    // D341). The queue behind a stalled server is bounded by its length instead.
    commandOptions: { timeout: undefined },
    commandsQueueMaxLength: KV_QUEUE_MAX_LENGTH,
  });
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let everReady = false;
  let down = false;
  let closed = false;
  let credentialsRefused = false;

  client.on('error', (err: unknown) => {
    if (!credentialsRefused && !closed && CREDENTIALS_REFUSED.test(messageOf(err))) {
      credentialsRefused = true;
      logger.error(
        { event: 'redis_credentials_refused', reason: messageOf(err) },
        'Redis refuses the credentials in REDIS_URL: fix the password (or user) of this deployment',
      );
    }
    if (down || client.isReady || closed) return;
    down = true;
    logger.warn(
      { event: 'redis_down', reason: messageOf(err) },
      'Redis is unreachable: its operations fail fast until it returns',
    );
  });
  client.on('ready', () => {
    const again = everReady;
    everReady = true;
    credentialsRefused = false;
    if (down) {
      down = false;
      logger.info({ event: 'redis_up' }, 'Redis is reachable again');
    }
    // Every reconnection, also one whose drop raised no error while the client still looked
    // ready (a killed server): the server may be a new one, without scripts or keys.
    if (again) events.emit('reconnect');
  });
  // Never awaited: the store works (failing fast) before the first connection, and node-redis
  // keeps reconnecting by itself. It rejects only when closed while connecting.
  client.connect().catch(() => undefined);

  const firstReady = firstConnection(client);
  // The same connection, answering blob strings as Buffers (node-redis README "Type mapping").
  const bytesClient = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  async function run<T>(send: () => Promise<T>): Promise<T> {
    if (!client.isReady) {
      if (everReady || down || closed) throw new KvUnavailableError('not connected');
      await firstReady.wait();
      if (!client.isReady) throw new KvUnavailableError('not connected');
    }
    return bounded(send(), KV_COMMAND_TIMEOUT_MS);
  }

  const connection: RedisConnection = {
    get ready() {
      return client.isReady;
    },
    get credentialsRefused() {
      return credentialsRefused;
    },
    sendCommand: (args) => run(() => client.sendCommand([...args])),
    onReconnect(listener) {
      events.on('reconnect', listener);
      return () => events.off('reconnect', listener);
    },
  };

  // Subscriptions use their own connection (a subscribed connection runs nothing else). It keeps
  // an offline queue, so a SUBSCRIBE issued while Redis is away is sent when it returns; node-redis
  // renews confirmed subscriptions on every reconnection.
  let subscriber: ReturnType<typeof client.duplicate> | undefined;
  let subscriberFirstReady: FirstConnection | undefined;
  const handlers = new Map<string, Set<MessageHandler>>();
  const dispatch = (message: string, channel: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  };
  const getSubscriber = () => {
    if (!subscriber) {
      subscriber = client.duplicate({ disableOfflineQueue: false });
      subscriber.on('error', (err: unknown) =>
        logger.debug({ reason: messageOf(err) }, 'Redis subscriber connection error'),
      );
      subscriberFirstReady = firstConnection(subscriber);
      subscriber.connect().catch(() => undefined);
    }
    return subscriber;
  };
  const k = (key: string) => prefix + key;
  /** SET of text or bytes (node-redis sends a Buffer argument as it is), with EX when given. */
  const setValue = async (key: string, value: string | Buffer, ttlSeconds: number | undefined) => {
    await run(() =>
      ttlSeconds !== undefined
        ? client.set(k(key), value, { expiration: { type: 'EX', value: ttlSeconds } })
        : client.set(k(key), value),
    );
  };

  return {
    kind: 'redis',
    redis: connection,
    get: (key) => run(() => client.get(k(key))),
    getBytes: (key) => run(() => bytesClient.get(k(key))),
    set: (key, value, ttlSeconds) => setValue(key, value, ttlSeconds),
    setBytes: (key, value, ttlSeconds) => setValue(key, value, ttlSeconds),
    async setIfAbsent(key, value, ttlSeconds) {
      const reply = await run(() =>
        client.set(k(key), value, {
          expiration: { type: 'EX', value: ttlSeconds },
          condition: 'NX',
        }),
      );
      return reply === 'OK';
    },
    getDel: (key) => run(() => client.getDel(k(key))),
    del: (key) => run(() => client.del(k(key))),
    async delIfEquals(key, value) {
      const reply = await run(() =>
        client.eval(DEL_IF_EQUALS, { keys: [k(key)], arguments: [value] }),
      );
      return reply === 1;
    },
    async expireIfEquals(key, value, ttlSeconds) {
      const reply = await run(() =>
        client.eval(EXPIRE_IF_EQUALS, { keys: [k(key)], arguments: [value, String(ttlSeconds)] }),
      );
      return reply === 1;
    },
    async setIfHeld(key, value, ttlSeconds, fence) {
      const reply = await run(() =>
        client.eval(SET_IF_HELD, {
          keys: [k(fence.key), k(key)],
          arguments: [fence.value, value, String(ttlSeconds)],
        }),
      );
      return reply === 1;
    },
    async publish(channel, message) {
      await run(() => client.publish(k(channel), message));
    },
    async subscribe(channel, handler) {
      const full = k(channel);
      const sub = getSubscriber();
      await subscriberFirstReady?.wait();
      let set = handlers.get(full);
      if (!set) {
        set = new Set();
        handlers.set(full, set);
        const subscribed = sub.subscribe(full, dispatch);
        if (sub.isReady) {
          try {
            await bounded(subscribed, KV_COMMAND_TIMEOUT_MS);
          } catch (err) {
            handlers.delete(full);
            sub.unsubscribe(full).catch(() => undefined);
            throw err;
          }
        } else {
          subscribed.catch((err: unknown) =>
            logger.warn({ channel: full, reason: messageOf(err) }, 'Redis subscription failed'),
          );
        }
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(full);
        current?.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(full);
          // While Redis is away the UNSUBSCRIBE waits in the subscriber's queue; nothing to wait for.
          if (sub.isReady) await bounded(sub.unsubscribe(full), KV_COMMAND_TIMEOUT_MS);
          else sub.unsubscribe(full).catch(() => undefined);
        }
      };
    },
    async ping() {
      await run(() => client.ping());
    },
    async close() {
      closed = true;
      events.removeAllListeners();
      await Promise.all([client, subscriber].flatMap((c): Promise<void>[] => (c ? [shut(c)] : [])));
    },
  };
}

interface MemoryEntry {
  /** Text, or bytes set with `setBytes`. */
  value: string | Buffer;
  expiresAt: number | undefined;
}

/** An entry's value as text (bytes decoded as UTF-8, as Redis's text replies are). */
const asText = (value: string | Buffer | undefined): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : value.toString('utf8');

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
    get: (key) => Promise.resolve(asText(live(k(key))?.value)),
    getBytes(key) {
      const value = live(k(key))?.value;
      if (value === undefined) return Promise.resolve(null);
      return Promise.resolve(typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
    },
    set(key, value, ttlSeconds) {
      entries.set(k(key), { value, expiresAt: expiry(ttlSeconds) });
      return Promise.resolve();
    },
    setBytes(key, value, ttlSeconds) {
      entries.set(k(key), { value: Buffer.from(value), expiresAt: expiry(ttlSeconds) });
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
      return Promise.resolve(asText(entry?.value));
    },
    del(key) {
      const existed = live(k(key)) !== undefined;
      entries.delete(k(key));
      return Promise.resolve(existed ? 1 : 0);
    },
    delIfEquals(key, value) {
      if (asText(live(k(key))?.value) !== value) return Promise.resolve(false);
      entries.delete(k(key));
      return Promise.resolve(true);
    },
    expireIfEquals(key, value, ttlSeconds) {
      const entry = live(k(key));
      if (entry === undefined || asText(entry.value) !== value) return Promise.resolve(false);
      entry.expiresAt = expiry(ttlSeconds);
      return Promise.resolve(true);
    },
    setIfHeld(key, value, ttlSeconds, fence) {
      if (asText(live(k(fence.key))?.value) !== fence.value) return Promise.resolve(false);
      entries.set(k(key), { value, expiresAt: expiry(ttlSeconds) });
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
