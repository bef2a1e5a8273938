/**
 * AppResources for tests: real database (from createTestDatabase), a KvStore on REDIS_URL when set
 * (else in-process) with a unique key prefix, a fixed clock, a silent logger, fresh metrics.
 */
import { randomBytes } from 'node:crypto';
import { createKvStore, createLogger, createMetrics, parseConfig } from '@ctss/server-kit';
import { ConfigSchema, type AppConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import type { AppResources } from '../../src/deps.js';
import { createNameResolver } from '../../src/names/resolver.js';

/** The fixed "now" of tests: 2026-11-21T12:34:56Z. */
export const TEST_NOW = new Date('2026-11-21T12:34:56.000Z');

/** Overrides of {@link buildTestDeps}; `database` is the database (primary and read). */
export type TestDepsOverrides = Partial<Omit<AppResources, 'config' | 'db'>> & {
  database: Database;
  /** Environment-style configuration values (parsed with the app schema). */
  env?: Record<string, string>;
};

/** AppResources plus `close()` for the KV store. */
export type TestDeps = AppResources & { close(): Promise<void> };

/** Builds test dependencies; close them in afterAll. */
export function buildTestDeps(overrides: TestDepsOverrides): TestDeps {
  const prefix = `ctss:test:${randomBytes(6).toString('hex')}:`;
  const config: AppConfig = parseConfig(ConfigSchema, {
    LOG_LEVEL: 'silent',
    // High enough that only the rate-limit tests (which lower it) ever see a 429.
    RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_PREFIX: prefix,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...overrides.env,
  });
  const logger = createLogger({ name: 'monitoring-api-test', level: 'silent' });
  const kv = overrides.kv ?? createKvStore({ redisUrl: config.REDIS_URL, prefix, logger });
  const { database, env: _env, ...rest } = overrides;
  return {
    config,
    db: { primary: database, read: database },
    kv,
    clock: () => TEST_NOW.getTime(),
    logger,
    metrics: createMetrics({ prefix: 'monitoring_test_' }),
    names: createNameResolver(config),
    ...rest,
    async close() {
      await kv.close();
    },
  };
}
