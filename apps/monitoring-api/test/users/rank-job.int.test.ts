/** The rank job entry (runRankJob) against a real database URL. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKnex } from '../../src/db/connect.js';
import { runRankJob } from '../../src/users/rank-job-run.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { bindTestWallet, evmAddress, insertUser } from './builders.js';

describe('rank job', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    const a = await insertUser(db.knex, { username: 'a.ctss' });
    const b = await insertUser(db.knex, { username: 'b.ctss' });
    await bindTestWallet(db.knex, a, 'evm', evmAddress(1), { swap_points_mainnet: 1 });
    await bindTestWallet(db.knex, b, 'evm', evmAddress(2), { swap_points_mainnet: 2 });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when run with DATABASE_URL, then it stores the ranks of both networks and reports the changes', async () => {
    // The embedded PGlite serves one connection: close the test pool while the job runs.
    await db.knex.destroy();
    expect(await runRankJob({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' })).toEqual({ mainnet: 2, devnet: 2 });
    const check = createKnex(db.url, { poolMax: 1 });
    try {
      const rows = await check.raw<{ rows: { username: string }[] }>('select username from users order by domain_rank_mainnet');
      expect(rows.rows.map((r) => r.username)).toEqual(['b.ctss', 'a.ctss']);
    } finally {
      await check.destroy();
    }
  });

  it('when DATABASE_URL is absent or invalid, then it fails with a clear message', async () => {
    await expect(runRankJob({ LOG_LEVEL: 'silent' })).rejects.toThrow('DATABASE_URL must be set');
    await expect(runRankJob({ DATABASE_URL: 'mysql://x' })).rejects.toThrow('DATABASE_URL');
  });
});
