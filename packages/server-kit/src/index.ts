/**
 * @ctss/server-kit: the HTTP plumbing both services share (problem details, validation, exact
 * JSON, KV store, cached loader, metrics, rate limiting, OpenAPI serving, lifecycle, config, the
 * probe server of background processes, a timeout for awaited answers).
 */
export * from './clock.js';
export * from './config.js';
export * from './logger.js';
export * from './problem.js';
export * from './validate.js';
export * from './validation-messages.js';
export * from './json.js';
export * from './kv.js';
export * from './cached-loader.js';
export * from './metrics.js';
export * from './rate-limit.js';
export * from './rate-limit-store.js';
export * from './client-address.js';
export * from './http-app.js';
export * from './compression.js';
export * from './http-cache.js';
export * from './openapi.js';
export * from './openapi-security.js';
export * from './lifecycle.js';
export * from './run-process.js';
export * from './connection-limits.js';
export * from './http-server.js';
export * from './metrics-server.js';
export * from './probe-server.js';
export * from './timeout.js';
export * from './service-config.js';
export * from './env-docs.js';
