/** The app over real HTTP for users tests: a migrated database of the test file's own, real deps. */
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildTestDeps, type TestDeps, type TestDepsOverrides } from '../support/deps.js';

/** A test app with its database and dependencies. */
export interface UsersTestApp {
  app: Express;
  db: TestDatabase;
  deps: TestDeps;
  close(): Promise<void>;
}

/** Builds the app on a fresh database; `overrides` may replace the clock or set env values. */
export async function startUsersTestApp(
  overrides: Omit<TestDepsOverrides, 'knex'> = {},
): Promise<UsersTestApp> {
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
