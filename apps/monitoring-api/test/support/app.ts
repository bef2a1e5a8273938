/** The app over real HTTP for tests: a migrated database of the test file's own, real deps. */
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { buildTestDeps, type TestDeps, type TestDepsOverrides } from './deps.js';
import { useResource } from './hooks.js';
import { listenOnLoopback } from './listen.js';

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
  overrides: Omit<TestDepsOverrides, 'database'> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const deps = buildTestDeps({
    ...overrides,
    database: db.database,
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
 * A test app of the calling describe block's own, started by {@link startTestApp} with
 * `overrides` before its tests and closed after them (see {@link useResource}).
 */
export function useTestApp(overrides: Omit<TestDepsOverrides, 'database'> = {}): TestApp {
  return useResource(
    () => startTestApp(overrides),
    (t) => t.close(),
  );
}

/** A test app served over HTTP on a loopback port. */
export interface ServedTestApp {
  readonly api: TestApp;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly base: string;
  /** Closes the server, then the app (its database dropped). */
  close(): Promise<void>;
}

/**
 * Starts a test app ({@link startTestApp} with `overrides`) and serves it on a port the system
 * picks; the app is closed again when the server cannot listen.
 *
 * @throws when the database cannot be created or the server cannot listen.
 */
export async function serveTestApp(
  overrides: Omit<TestDepsOverrides, 'database'> = {},
): Promise<ServedTestApp> {
  const api = await startTestApp(overrides);
  try {
    const server = await listenOnLoopback(api.app);
    return {
      api,
      base: server.base,
      async close() {
        await server.close();
        await api.close();
      },
    };
  } catch (err) {
    await api.close();
    throw err;
  }
}
