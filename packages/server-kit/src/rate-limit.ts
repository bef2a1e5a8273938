/**
 * Per-client rate limiting (README.md "Configuration"): per IP behind a trusted proxy, shared
 * across replicas through Redis (rate-limit-redis), default 120 requests/minute, API keys for a
 * higher tier. Headers: `RateLimit` and `RateLimit-Policy` (IETF draft 7) and `X-RateLimit-*`;
 * excess gets 429 RATE_LIMITED with `Retry-After`. While Redis is away the counts fail open to
 * process memory ({@link FailoverRateLimitStore}). {@link RateLimiter.consume} applies the same
 * limit to requests that never reach express (WebSocket upgrades).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { MemoryStore, rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import { Counter, Gauge } from 'prom-client';
import type { RedisConnection } from './kv.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { clientKey } from './client-address.js';
import { HttpProblem, sendProblem } from './problem.js';
import { FailoverRateLimitStore } from './rate-limit-store.js';

/** Rate limit settings. */
export interface RateLimitOptions {
  /** Requests per window per client IP. */
  limit: number;
  /** Window length in seconds (default 60). */
  windowSeconds?: number;
  /** Redis connection shared by replicas (`KvStore.redis`); absent means per-process counting. */
  redis?: RedisConnection | undefined;
  /** Key prefix in Redis, e.g. `gas:rl:`. */
  prefix?: string;
  /**
   * API keys (sent as `X-API-Key`) that get {@link apiKeyLimit}: each a key as clients send it,
   * or its digest as `sha256:<64 hex digits>` ({@link apiKeyDigest}), so the Secret need not hold
   * the key itself. Kept and compared only as digests.
   */
  apiKeys?: ReadonlySet<string>;
  /** Per-window limit of an API key (default 10 x `limit`). */
  apiKeyLimit?: number;
  /** Paths never limited (default: the probes; /metrics is limited when served on the API port). */
  skipPaths?: readonly string[];
}

/** An API key configured as its digest: `sha256:` and 64 lowercase hex digits. */
const DIGEST_ENTRY = /^sha256:([0-9a-f]{64})$/;

/**
 * The SHA-256 digest of an API key as 64 lowercase hex digits: what the rate limiter keeps,
 * compares and counts under (`key:<digest>`), so no key appears in a Redis key name, a metric or
 * a log line (docs/decisions.md "D89. API keys kept as digests").
 */
export function apiKeyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The digests of configured API keys: a `sha256:<hex>` entry as is, any other entry hashed. */
export function apiKeyDigests(entries: Iterable<string>): Set<string> {
  const digests = new Set<string>();
  for (const entry of entries) digests.add(DIGEST_ENTRY.exec(entry)?.[1] ?? apiKeyDigest(entry));
  return digests;
}

/** express-rate-limit stores its result on the request as `rateLimit` (its default property name). */
const infoOf = (req: Request): RateLimitInfo | undefined =>
  (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;

/**
 * Writes the legacy `X-RateLimit-*` headers (docs/decisions.md "D13. Rate-limit figure and
 * headers") from express-rate-limit's info.
 */
function setLegacyHeaders(
  res: Response,
  info: { limit: number; remaining: number } | undefined,
): void {
  if (!info) return;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
}

/** What the rate limiter reports to: fallback log lines and the Prometheus instruments. */
export interface RateLimitDeps {
  readonly logger?: Logger | undefined;
  /**
   * The app's registry: adds `<prefix>rate_limit_fallback_total` (requests counted in process
   * memory because Redis was away) and `<prefix>redis_up` (1 while the Redis connection is ready).
   */
  readonly metrics?: Metrics | undefined;
}

/** The outcome of {@link RateLimiter.consume}. */
export interface RateLimitDecision {
  /** False when this hit is over the limit of its window. */
  readonly allowed: boolean;
  /** The client's per-window limit. */
  readonly limit: number;
  /** Hits left in the window. */
  readonly remaining: number;
  /** Seconds until the window resets (at least 1): the `Retry-After` of a refusal. */
  readonly retryAfterSeconds: number;
  /** The counter key (`ip:<address>` or `key:<SHA-256 of the API key, hex>`). */
  readonly key: string;
}

/** The rate-limiting middleware, plus an entry point for requests that bypass express. */
export interface RateLimiter extends RequestHandler {
  /**
   * Counts one hit for `req` under the same key rules ({@link clientKey}, `X-API-Key`), limits and
   * store as the middleware, so e.g. a WebSocket upgrade counts against its client's HTTP limit.
   * `req.ip` must already be the client address (see {@link clientAddress}). Never rejects: with
   * Redis away the hit is counted in process memory.
   */
  consume(
    req: Pick<IncomingMessage, 'headers'> & { readonly ip?: string | undefined },
  ): Promise<RateLimitDecision>;
}

/** The fallback counter and the Redis gauge in the app's registry (created once per registry). */
function rateLimitInstruments(
  metrics: Metrics | undefined,
  redis: RedisConnection | undefined,
): { fallback?: Counter } {
  if (!metrics) return {};
  const prefix = metrics.prefix;
  const registry = metrics.registry;
  const fallbackName = `${prefix}rate_limit_fallback_total`;
  const fallback =
    (registry.getSingleMetric(fallbackName) as Counter | undefined) ??
    new Counter({
      name: fallbackName,
      help: 'Requests whose rate limit was counted in process memory because Redis was unavailable',
      registers: [registry],
    });
  const upName = `${prefix}redis_up`;
  if (redis && !registry.getSingleMetric(upName)) {
    new Gauge({
      name: upName,
      help: 'Whether the Redis connection is ready (1) or not (0)',
      registers: [registry],
      collect() {
        this.set(redis.ready ? 1 : 0);
      },
    });
  }
  return { fallback };
}

/** Creates the rate-limiting middleware (see {@link RateLimiter}). */
export function createRateLimiter(opts: RateLimitOptions, deps: RateLimitDeps = {}): RateLimiter {
  const windowMs = (opts.windowSeconds ?? 60) * 1000;
  const digests = apiKeyDigests(opts.apiKeys ?? []);
  /** The digest of a configured key sent in `X-API-Key`, else undefined (the key itself is never kept). */
  const apiKeyOf = (header: unknown): string | undefined => {
    if (typeof header !== 'string' || digests.size === 0) return undefined;
    const digest = apiKeyDigest(header);
    return digests.has(digest) ? digest : undefined;
  };
  const skip = new Set(opts.skipPaths ?? ['/health', '/ready']);
  const redis = opts.redis;
  const { fallback } = rateLimitInstruments(deps.metrics, redis);
  const limitOf = (apiKeyHeader: unknown) =>
    apiKeyOf(apiKeyHeader) ? (opts.apiKeyLimit ?? opts.limit * 10) : opts.limit;
  const keyOf = (apiKeyHeader: unknown, ip: string | undefined) => {
    const key = apiKeyOf(apiKeyHeader);
    return key ? `key:${key}` : clientKey(ip);
  };
  const store: Store = redis
    ? new FailoverRateLimitStore(redis, {
        prefix: opts.prefix ?? 'rl:',
        logger: deps.logger,
        onFallback: () => fallback?.inc(),
      })
    : new MemoryStore();

  const limiter = rateLimit({
    windowMs,
    limit: (req) => limitOf(req.headers['x-api-key']),
    standardHeaders: 'draft-7',
    // Set by hand below: the library's legacy set also writes X-RateLimit-Reset per request.
    legacyHeaders: false,
    skip: (req) => skip.has(req.path),
    // clientKey applies ipKeyGenerator to IPv6 clients; the library's source-text check cannot see that.
    validate: { keyGeneratorIpFallback: false },
    keyGenerator: (req) => keyOf(req.headers['x-api-key'], req.ip),
    store,
    handler: (req, res, _next, options) => {
      setLegacyHeaders(res, infoOf(req));
      const retryAfter = String(Math.ceil(options.windowMs / 1000));
      const limitError = new HttpProblem(
        429,
        'RATE_LIMITED',
        'too many requests; retry after the window resets',
        {
          'Retry-After': res.getHeader('Retry-After')?.toString() ?? retryAfter,
        },
      );
      sendProblem(res, limitError);
    },
  });
  const middleware: RequestHandler = (req, res, next) => {
    void limiter(req, res, (err?: unknown) => {
      if (!err) setLegacyHeaders(res, infoOf(req));
      next(err);
    });
  };
  const consume: RateLimiter['consume'] = async (req) => {
    const key = keyOf(req.headers['x-api-key'], req.ip);
    const limit = limitOf(req.headers['x-api-key']);
    const { totalHits, resetTime } = await store.increment(key);
    const resetsInMs = (resetTime?.getTime() ?? Date.now() + windowMs) - Date.now();
    return {
      allowed: totalHits <= limit,
      limit,
      remaining: Math.max(limit - totalHits, 0),
      retryAfterSeconds: Math.max(1, Math.ceil(resetsInMs / 1000)),
      key,
    };
  };
  return Object.assign(middleware, { consume });
}
