/**
 * Session settings of the pools (src/db/connect.ts): JIT is off on every connection, primary and
 * replicas alike (packages/bench/FINDINGS.md "Monitoring API: 10-record feed pages and the leaderboard"). Needs a real server: PGlite ignores
 * startup options (and has no JIT).
 */
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import { createDatabases } from '../src/db/connect.js';
import type { Database } from '../src/db/database.js';
import { useTestDatabase } from './support/database.js';

const logger = createLogger({ name: 'connect-test', level: 'silent' });
const real = Boolean(process.env.DATABASE_URL);
if (!real)
  console.info(
    'connection settings test skipped: DATABASE_URL is not set (PGlite ignores startup options)',
  );

(real ? describe : describe.skip)('database connections', () => {
  const db = useTestDatabase({ migrate: false });

  it('when the primary, replica and single pools connect, then JIT is off in each session', async () => {
    const jit = async (database: Pick<Database, 'first'>) =>
      (await database.first<{ jit: string }>('show jit'))!.jit;
    expect(await jit(db.database)).toBe('off');
    expect((await db.knex.raw<{ rows: { jit: string }[] }>('show jit')).rows[0]!.jit).toBe('off');
    const handles = createDatabases({ primaryUrl: db.url, readUrls: [db.url], poolMax: 1 }, logger);
    try {
      expect([await jit(handles.primary), await jit(handles.read)]).toEqual(['off', 'off']);
    } finally {
      await handles.close();
    }
  });
});
