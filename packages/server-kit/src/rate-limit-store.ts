/**
 * The rate-limit store (express-rate-limit's `Store` interface): counters in Redis through
 * rate-limit-redis, shared by every replica, failing open to an in-process MemoryStore while Redis
 * is away (README.md "Configuration": a Redis outage must not stall or refuse every request).
 * Requests never wait on a connection known to be down; the switch each way is logged once and
 * every request counted in memory increments a Prometheus counter.
 */
import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import { MemoryStore } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Clock } from './clock.js';
import type { RedisConnection } from './kv.js';
import type { Logger } from './logger.js';

/** After a Redis failure while the connection still looks ready (a hung server), retry it after this, ms. */
export const RATE_LIMIT_REDIS_RETRY_MS = 1000;

/** Options of {@link FailoverRateLimitStore}. */
export interface FailoverStoreOptions {
  /** Redis key prefix of the counters, e.g. `gas:rl:`. */
  readonly prefix: string;
  readonly logger?: Logger | undefined;
  /** Called once for every request counted in memory instead of Redis. */
  readonly onFallback?: (() => void) | undefined;
  /** Current time, ms since epoch (default Date.now). */
  readonly clock?: Clock;
}

/**
 * Counts in Redis while it answers, in process memory while it does not (fail open: a replica
 * then limits each client to `limit` per window on its own, express-rate-limit's MemoryStore
 * semantics). Back to Redis as soon as the connection is ready again.
 */
export class FailoverRateLimitStore implements Store {
  /** Counters are shared through Redis, so keys are not local to this instance. */
  readonly localKeys = false;
  readonly prefix: string;
  readonly #connection: RedisConnection;
  readonly #redis: RedisStore;
  readonly #memory = new MemoryStore();
  readonly #opts: FailoverStoreOptions;
  readonly #clock: Clock;
  #options: Options | undefined;
  /** rate-limit-redis loads its Lua scripts in `init`; a failed load is retried on next use. */
  #redisInit: Promise<void> | undefined;
  #fallingBack = false;
  #retryRedisAt = 0;

  constructor(connection: RedisConnection, opts: FailoverStoreOptions) {
    this.#connection = connection;
    this.#opts = opts;
    this.#clock = opts.clock ?? Date.now;
    this.prefix = opts.prefix;
    this.#redis = new RedisStore({
      prefix: opts.prefix,
      sendCommand: (...args: string[]) => connection.sendCommand(args) as Promise<RedisReply>,
    });
    // A restarted Redis has lost the scripts and counters: load them again on the next request.
    connection.onReconnect(() => {
      this.#redisInit = undefined;
      this.#retryRedisAt = 0;
    });
  }

  /** Called by express-rate-limit once with its options (windowMs). */
  init(options: Options): void {
    this.#options = options;
    this.#memory.init(options);
  }

  /** Whether the counters are in process memory right now (Redis away). */
  get fallingBack(): boolean {
    return this.#fallingBack;
  }

  /**
   * Adds one hit for `key` and returns the window's total and reset time. Never rejects for a
   * Redis failure: that hit is counted in memory instead.
   */
  async increment(key: string): Promise<IncrementResponse> {
    const now = this.#clock();
    if (this.#connection.ready && now >= this.#retryRedisAt) {
      // While falling back, one request at a time probes Redis; the others do not wait on it.
      if (this.#fallingBack) this.#retryRedisAt = now + RATE_LIMIT_REDIS_RETRY_MS;
      try {
        const result = await this.#incrementInRedis(key);
        this.#recovered();
        return result;
      } catch (err) {
        this.#failed(err);
      }
    } else if (!this.#fallingBack) {
      this.#failed(new Error('Redis connection is not ready'));
    }
    this.#opts.onFallback?.();
    return this.#memory.increment(key);
  }

  /** Removes one hit for `key` (express-rate-limit's skip options); best effort on both stores. */
  async decrement(key: string): Promise<void> {
    await this.#memory.decrement(key);
    if (!this.#fallingBack) await this.#redis.decrement(key).catch(() => undefined);
  }

  /** Forgets `key` in both stores (best effort in Redis). */
  async resetKey(key: string): Promise<void> {
    await this.#memory.resetKey(key);
    await this.#redis.resetKey(key).catch(() => undefined);
  }

  /** Stops the in-process store's cleanup timer. */
  shutdown(): void {
    this.#memory.shutdown();
  }

  async #incrementInRedis(key: string): Promise<IncrementResponse> {
    if (!this.#redisInit) {
      const options = this.#options;
      if (!options) throw new Error('the rate-limit store was not initialised');
      const loading = this.#redis.init(options).catch((err: unknown) => {
        if (this.#redisInit === loading) this.#redisInit = undefined;
        throw err;
      });
      this.#redisInit = loading;
    }
    await this.#redisInit;
    return this.#redis.increment(key);
  }

  #failed(err: unknown): void {
    this.#retryRedisAt = this.#clock() + RATE_LIMIT_REDIS_RETRY_MS;
    // rate-limit-redis keeps the promise of its script's SHA: a failed reload (a NOSCRIPT answer
    // followed by a failed SCRIPT LOAD) would otherwise fail every later increment, even once
    // Redis answers again on the same connection. The next probe loads the scripts anew.
    this.#redisInit = undefined;
    if (this.#fallingBack) return;
    this.#fallingBack = true;
    this.#opts.logger?.warn(
      { event: 'rate_limit_fallback', reason: err instanceof Error ? err.message : String(err) },
      'rate limit counts in process memory while Redis is unavailable',
    );
  }

  #recovered(): void {
    if (!this.#fallingBack) return;
    this.#fallingBack = false;
    // The probe that found Redis back set the next probe time; every request goes to Redis again.
    this.#retryRedisAt = 0;
    this.#opts.logger?.info({ event: 'rate_limit_redis' }, 'rate limit counts in Redis again');
  }
}
