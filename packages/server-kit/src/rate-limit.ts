/**
 * Per-client rate limiting (DESIGN.md "Rate limit"): per IP behind a trusted proxy, shared across
 * replicas through Redis (rate-limit-redis), default 120 requests/minute, API keys for a higher
 * tier. Headers: `RateLimit` and `RateLimit-Policy` (IETF draft 7) and `X-RateLimit-*`; excess
 * gets 429 RATE_LIMITED with `Retry-After`.
 */
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, ipKeyGenerator, type RateLimitInfo } from 'express-rate-limit';
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

/**
 * The rate-limit key of a client address. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a
 * dual-stack listener reports for IPv4 clients) is the IPv4 client itself: keyed as such, it also
 * skips parsing the address as IPv6 on every request. Other IPv6 clients are keyed by their /56,
 * as express-rate-limit's `ipKeyGenerator` does.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'ip:unknown';
  if (ip.startsWith('::ffff:') && ip.includes('.')) return `ip:${ip.slice(7)}`;
  return ip.includes(':') ? `ip:${ipKeyGenerator(ip)}` : `ip:${ip}`;
}

/** express-rate-limit stores its result on the request as `rateLimit` (its default property name). */
const infoOf = (req: Request): RateLimitInfo | undefined =>
  (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;

/** Writes the legacy `X-RateLimit-*` headers DESIGN.md asks for, from express-rate-limit's info. */
function setLegacyHeaders(
  res: Response,
  info: { limit: number; remaining: number } | undefined,
): void {
  if (!info) return;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
}

/** Creates the rate-limiting middleware. */
export function createRateLimiter(opts: RateLimitOptions): RequestHandler {
  const windowMs = (opts.windowSeconds ?? 60) * 1000;
  const apiKeys = opts.apiKeys ?? new Set<string>();
  const apiKeyOf = (header: unknown): string | undefined =>
    typeof header === 'string' && apiKeys.has(header) ? header : undefined;
  const skip = new Set(opts.skipPaths ?? ['/health', '/ready', '/metrics']);
  const redis = opts.redis;

  const limiter = rateLimit({
    windowMs,
    limit: (req) =>
      apiKeyOf(req.headers['x-api-key']) ? (opts.apiKeyLimit ?? opts.limit * 10) : opts.limit,
    standardHeaders: 'draft-7',
    // Set by hand below: the library's legacy set also writes X-RateLimit-Reset per request.
    legacyHeaders: false,
    skip: (req) => skip.has(req.path),
    // clientKey applies ipKeyGenerator to IPv6 clients; the library's source-text check cannot see that.
    validate: { keyGeneratorIpFallback: false },
    keyGenerator: (req) => {
      const key = apiKeyOf(req.headers['x-api-key']);
      return key ? `key:${key}` : clientKey(req.ip);
    },
    store: redis
      ? new RedisStore({
          prefix: opts.prefix ?? 'rl:',
          sendCommand: (command: string, ...args: string[]) =>
            redis.call(command, ...args) as Promise<RedisReply>,
        })
      : undefined,
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
  return (req, res, next) => {
    void limiter(req, res, (err?: unknown) => {
      if (!err) setLegacyHeaders(res, infoOf(req));
      next(err);
    });
  };
}
