/** The app over real HTTP for tests: a migrated database of the test file's own, real deps. */
import { afterAll, beforeAll } from '@jest/globals';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { buildTestDeps, type TestDeps, type TestDepsOverrides } from './deps.js';

/** A test app with its database and dependencies. */
export interface TestApp {
  app: Express;
  db: TestDatabase;
  deps: TestDeps;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh database; `overrides` may replace the clock or set env values (the
 * rate limit is raised unless set, so a file's many requests are never limited).
 */
export async function startTestApp(
  overrides: Omit<TestDepsOverrides, 'knex'> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const deps = buildTestDeps({
    ...overrides,
    knex: db.knex,
    env: { RATE_LIMIT_PER_MINUTE: '1000000', ...overrides.env },
  });
  return {
    app: createApp(deps),
    db,
    deps,
    async close() {
      await deps.close();
      await db.drop();
    },
  };
}

/**
 * A test app of the calling describe block's own: started by {@link startTestApp} with
 * `overrides` in a beforeAll hook and closed in an afterAll hook registered here. The returned
 * handle reads through to it.
 *
 * @throws from its members when read outside the tests (before the beforeAll hook has run).
 */
export function useTestApp(
  overrides: Omit<TestDepsOverrides, 'knex'> = {},
): Omit<TestApp, 'close'> {
  let started: TestApp | undefined;
  const current = (): TestApp => {
    if (!started) throw new Error('the test app is started in beforeAll');
    return started;
  };
  beforeAll(async () => {
    started = await startTestApp(overrides);
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
    get deps() {
      return current().deps;
    },
  };
}
