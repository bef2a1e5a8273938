/**
 * Environment variables every service reads the same way, and the parsers of environment values
 * (integer, boolean, comma list, URL, JSON) every config schema of the project uses (docs/api.md "Limits",
 * "Rate limits" and "CORS"):
 * log level, Redis, CORS, rate limits, proxy trust and connection limits (docs/operations.md
 * "Connection limits"). Each app spreads {@link serviceConfigShape}
 * into its own config schema, so the names, defaults and parsing agree across services.
 */
import { z } from 'zod';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';
import type { RedisConnection } from './kv.js';
import type { RateLimitOptions } from './rate-limit.js';

/**
 * An environment variable holding a whole number in `[min, max]` (decimal digits only, surrounding
 * white space ignored); add `.default(n)` for an optional one. Every config schema of the project
 * parses integers with it, so they accept the same spellings.
 */
export const envInteger = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/**
 * An environment variable holding a boolean: `true`/`1` or `false`/`0` (nothing else, so a typo
 * stops the service instead of reading as false); add `.default(b)` for an optional one.
 */
export const envBoolean = () =>
  z
    .string()
    .trim()
    .pipe(z.enum(['true', 'false', '1', '0'], 'must be true, false, 1 or 0'))
    .transform((v) => v === 'true' || v === '1')
    .meta({ type: 'boolean' });

/**
 * An environment variable holding a comma-separated list: items trimmed, empty items dropped
 * (`"a, b,"` -> `["a", "b"]`); pipe it into `z.array(...)` to check each item.
 */
export const envList = () =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .meta({ type: 'array', items: { type: 'string' } });

/**
 * An environment variable holding an absolute URL whose scheme matches `protocol` (default
 * `http`/`https`), surrounding white space ignored.
 */
export const envUrl = (protocol: RegExp = /^https?$/) =>
  z.string().trim().pipe(z.url({ protocol }));

/**
 * An environment variable holding JSON text checked by `schema`; text that is not JSON is reported
 * as `must be <what>` (the value itself is never echoed).
 */
export const envJson = <S extends z.ZodType>(schema: S, what: string) =>
  z
    .string()
    .transform((v, ctx): unknown => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be ${what}` });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** Express `trust proxy`: `true`/`false`, a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxy = z.string().transform((v): boolean | number | string => {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^[0-9]+$/.test(v)) return Number(v);
  return v;
});

/**
 * Shared variables, with their defaults. Spread into an app's `z.object({...})`; an app that
 * needs another default or range redefines the variable with its own description. Each
 * `.describe()` text is the variable's line in the README's table (scripts/env-tables.mjs).
 */
export const serviceConfigShape = {
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level (JSON logs on stdout)'),
  REDIS_URL: envUrl(/^rediss?$/)
    .optional()
    .describe(
      '`redis://` or `rediss://` URL of the shared store (cache, rate limits, nonces, prices, pub/sub); unset = an in-process store, for one replica only',
    ),
  CORS_ORIGINS: envList()
    .default(['*'])
    .describe('comma-separated allowed browser origins; `*` allows any'),
  RATE_LIMIT_PER_MINUTE: envInteger(1, 1_000_000)
    .default(120)
    .describe(
      'requests per minute per client IP (docs/api.md "Rate limits"), shared across replicas through Redis; 429 with `Retry-After` above it',
    ),
  API_KEY_RATE_LIMIT_PER_MINUTE: envInteger(1, 10_000_000)
    .default(1200)
    .describe('requests per minute for a client sending a key of `API_KEYS` in `X-API-Key`'),
  API_KEYS: envList()
    .default([])
    .describe(
      'comma-separated API keys of the higher tier (header `X-API-Key`), each as is or as `sha256:<hex digest>`; kept and counted only as digests',
    ),
  TRUST_PROXY: trustProxy
    .default(false)
    .describe(
      'express `trust proxy`: `false` trusts no peer (`X-Forwarded-For` ignored); behind an ingress its CIDRs (docs/operations.md "Client addresses"); never a hop count or `true`',
    ),
  HTTP_HEADERS_TIMEOUT_SECONDS: envInteger(1, 600)
    .default(DEFAULT_CONNECTION_LIMITS.headersTimeoutSeconds)
    .describe(
      'seconds for a request\'s headers (and a new connection\'s first bytes), else 408 (docs/operations.md "Connection limits")',
    ),
  HTTP_REQUEST_TIMEOUT_SECONDS: envInteger(1, 3600)
    .default(DEFAULT_CONNECTION_LIMITS.requestTimeoutSeconds)
    .describe('seconds for a whole request, body included, else 408'),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: envInteger(1, 3600)
    .default(DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutSeconds)
    .describe("seconds an idle keep-alive connection stays open (above an ingress's 60 s)"),
  HTTP_MAX_REQUESTS_PER_CONNECTION: envInteger(0, 1_000_000)
    .default(DEFAULT_CONNECTION_LIMITS.maxRequestsPerSocket)
    .describe('requests per keep-alive connection before `Connection: close`; 0 = no limit'),
  HTTP_MAX_CONNECTIONS: envInteger(1, 1_000_000)
    .default(DEFAULT_CONNECTION_LIMITS.maxConnections)
    .describe('open connections per process; more get 503 `SERVICE_UNAVAILABLE`'),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: envInteger(1, 1_000_000)
    .default(DEFAULT_CONNECTION_LIMITS.maxConnectionsPerAddress)
    .describe(
      'open connections per peer address (`TRUST_PROXY` peers exempt); more get 429 `RATE_LIMITED`',
    ),
  HTTP_HARD_MAX_CONNECTIONS: envInteger(1, 1_000_000)
    .default(DEFAULT_CONNECTION_LIMITS.hardMaxConnections)
    .describe('open connections (refused ones included) at which new ones are closed at accept'),
  METRICS_PORT: envInteger(1, 65_535)
    .optional()
    .describe(
      'port of a separate `/metrics` server (not exposed by the Ingress; the only path there); unset = `/metrics` on the API port, rate limited like every other path',
    ),
};

/** The parsed shared variables. */
export type ServiceConfig = z.output<z.ZodObject<typeof serviceConfigShape>>;

/** Rate-limit options from the shared variables; `redis` (`KvStore.redis`) shares counters across replicas. */
export function rateLimitFromConfig(
  config: Pick<
    ServiceConfig,
    'RATE_LIMIT_PER_MINUTE' | 'API_KEY_RATE_LIMIT_PER_MINUTE' | 'API_KEYS'
  >,
  redis: RedisConnection | undefined,
  prefix: string,
): RateLimitOptions {
  return {
    limit: config.RATE_LIMIT_PER_MINUTE,
    windowSeconds: 60,
    redis,
    prefix,
    apiKeys: new Set(config.API_KEYS),
    apiKeyLimit: config.API_KEY_RATE_LIMIT_PER_MINUTE,
  };
}

/**
 * The connection limits of the API server (connection-limits.ts) from the shared variables
 * (`HTTP_*` and `TRUST_PROXY`; docs/operations.md "Connection limits").
 */
export function connectionLimitsFromConfig(
  config: Pick<
    ServiceConfig,
    | 'HTTP_HEADERS_TIMEOUT_SECONDS'
    | 'HTTP_REQUEST_TIMEOUT_SECONDS'
    | 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS'
    | 'HTTP_MAX_REQUESTS_PER_CONNECTION'
    | 'HTTP_MAX_CONNECTIONS'
    | 'HTTP_MAX_CONNECTIONS_PER_ADDRESS'
    | 'HTTP_HARD_MAX_CONNECTIONS'
    | 'TRUST_PROXY'
  >,
): ConnectionLimits {
  return {
    headersTimeoutSeconds: config.HTTP_HEADERS_TIMEOUT_SECONDS,
    requestTimeoutSeconds: config.HTTP_REQUEST_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
    maxRequestsPerSocket: config.HTTP_MAX_REQUESTS_PER_CONNECTION,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    hardMaxConnections: config.HTTP_HARD_MAX_CONNECTIONS,
    trustProxy: config.TRUST_PROXY,
  };
}
