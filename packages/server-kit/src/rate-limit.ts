/**
 * Per-client rate limiting (DESIGN.md "Rate limit"): per IP behind a trusted proxy, shared across
 * replicas through Redis (rate-limit-redis), default 120 requests/minute, API keys for a higher
 * tier. Headers: `RateLimit` and `RateLimit-Policy` (IETF draft 7) and `X-RateLimit-*`; excess
 * gets 429 RATE_LIMITED with `Retry-After`.
 */
import type { RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { HttpProblem, sendProblem } from './problem.js';

/** Rate limit settings. */
export interface RateLimitOptions {
  /** Requests per window per client IP. */
  limit: number;
  /** Window length in seconds (default 60). */
  windowSeconds?: number;
  /** Redis client shared by replicas; absent means per-process counting. */
  redis?: Redis | undefined;
  /** Key prefix in Redis, e.g. `gas:rl:`. */
  prefix?: string;
  /** API keys (sent as `X-API-Key`) and the per-window limit they get. */
  apiKeys?: ReadonlySet<string>;
  apiKeyLimit?: number;
  /** Paths never limited (probes and metrics). */
  skipPaths?: readonly string[];
}

/** Creates the rate-limiting middleware. */
export function createRateLimiter(opts: RateLimitOptions): RequestHandler {
  const windowMs = (opts.windowSeconds ?? 60) * 1000;
  const apiKeys = opts.apiKeys ?? new Set<string>();
  const apiKeyOf = (header: unknown): string | undefined =>
    typeof header === 'string' && apiKeys.has(header) ? header : undefined;
  const skip = new Set(opts.skipPaths ?? ['/health', '/ready', '/metrics']);
  const redis = opts.redis;

  return rateLimit({
    windowMs,
    limit: (req) => (apiKeyOf(req.headers['x-api-key']) ? (opts.apiKeyLimit ?? opts.limit * 10) : opts.limit),
    standardHeaders: 'draft-7',
    legacyHeaders: true,
    skip: (req) => skip.has(req.path),
    keyGenerator: (req) => {
      const key = apiKeyOf(req.headers['x-api-key']);
      return key ? `key:${key}` : `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
    },
    store: redis
      ? new RedisStore({
          prefix: opts.prefix ?? 'rl:',
          sendCommand: (command: string, ...args: string[]) =>
            redis.call(command, ...args) as Promise<RedisReply>,
        })
      : undefined,
    handler: (_req, res, _next, options) => {
      const retryAfter = String(Math.ceil(options.windowMs / 1000));
      const limitError = new HttpProblem(429, 'RATE_LIMITED', 'too many requests; retry after the window resets', {
        'Retry-After': res.getHeader('Retry-After')?.toString() ?? retryAfter,
      });
      sendProblem(res, limitError);
    },
  });
}
