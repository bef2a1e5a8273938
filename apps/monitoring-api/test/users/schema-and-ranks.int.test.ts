/**
 * The users schema on a real database, in one file so the embedded PGlite starts once:
 * recomputeRanks (order, ties, both networks, idempotence), the migration (constraints, indexes,
 * down and up again), and the rank job entry (runRankJob) last, as it takes the connection.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAdminKnex } from '../../src/db/connect.js';
import * as usersMigration from '../../src/migrations/20261121000200_users.js';
import { recomputeRanks } from '../../src/users/ranks.js';
import { runRankJob } from '../../src/rank-job.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { bindTestWallet, evmAddress, insertUser, refer, setWalletPoints } from './builders.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function ranks(): Promise<
  { username: string; mainnet: number | null; devnet: number | null }[]
> {
  const result = await db.knex.raw<{
    rows: { username: string; mainnet: number | null; devnet: number | null }[];
  }>(
    'select username, domain_rank_mainnet as mainnet, domain_rank_devnet as devnet from users order by id',
  );
  return result.rows;
}

const USER_TABLES = ['referrals', 'user_wallets', 'users', 'wallet_points'];

async function userTables(): Promise<string[]> {
  const result = await db.knex.raw<{ rows: { table_name: string }[] }>(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_name = any(?) order by table_name`,
    [USER_TABLES],
  );
  return result.rows.map((r) => r.table_name);
}

async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('recomputeRanks', () => {
  beforeAll(async () => {
    // mainnet totals: carol (10+5 nft)*2 = 30, alice 20, bob 20 (tie, alice older), dave 0.
    // devnet totals: bob 50, dave 7, alice 1, carol 0.
    const alice = await insertUser(db.knex, { username: 'alice.ctss' });
    const bob = await insertUser(db.knex, { username: 'bob.ctss' });
    const carol = await insertUser(db.knex, {
      username: 'carol.ctss',
      domain_multiplier: 2,
      nft_points: 5,
    });
    const dave = await insertUser(db.knex, { username: 'dave.ctss' });
    await bindTestWallet(db.knex, alice, 'evm', evmAddress(1), {
      swap_points_mainnet: 10,
      points_multiplier: 2,
      swap_points: 1,
    });
    await bindTestWallet(db.knex, bob, 'evm', evmAddress(2), {
      swap_points_mainnet: 20,
      swap_points: 25,
      points_multiplier: 1,
    });
    await bindTestWallet(db.knex, bob, 'solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', {
      swap_points: 25,
    });
    await bindTestWallet(db.knex, carol, 'evm', evmAddress(3), { swap_points_mainnet: 10 });
    await bindTestWallet(db.knex, dave, 'sui', `0x${'d'.repeat(64)}`, { swap_points: 7 });
  });
  it('when ranks were never computed, then every user is unranked', async () => {
    expect((await ranks()).every((r) => r.mainnet === null && r.devnet === null)).toBe(true);
  });

  it('when computed, then both networks rank by multiplied total desc, ties by older account', async () => {
    expect(await recomputeRanks(db.database)).toEqual({ mainnet: 4, devnet: 4 });
    expect(await ranks()).toEqual([
      { username: 'alice.ctss', mainnet: 2, devnet: 3 },
      { username: 'bob.ctss', mainnet: 3, devnet: 1 },
      { username: 'carol.ctss', mainnet: 1, devnet: 4 },
      { username: 'dave.ctss', mainnet: 4, devnet: 2 },
    ]);
  });

  it('when nothing changed, then a second run writes no row; when points change, only moved users are written', async () => {
    expect(await recomputeRanks(db.database)).toEqual({ mainnet: 0, devnet: 0 });
    await setWalletPoints(db.knex, 'sui', `0x${'d'.repeat(64)}`, {
      swap_points: 7,
      swap_points_mainnet: 100,
    });
    expect(await recomputeRanks(db.database)).toEqual({ mainnet: 4, devnet: 0 });
    expect((await ranks()).map((r) => r.mainnet)).toEqual([3, 4, 2, 1]);
  });

  it('when two runs overlap, then both finish and the result is the same ranking', async () => {
    const [a, b] = await Promise.all([recomputeRanks(db.database), recomputeRanks(db.database)]);
    expect(a.mainnet + b.mainnet).toBe(0);
    expect((await ranks()).map((r) => r.mainnet)).toEqual([3, 4, 2, 1]);
  });
});

describe('users migration, on a real database', () => {
  it('when migrated, then the users tables and an index for every filter and sort exist', async () => {
    expect(await userTables()).toEqual(USER_TABLES);
    const indexes = await db.knex.raw<{ rows: { indexname: string }[] }>(
      `select indexname from pg_indexes where tablename in ('users', 'user_wallets', 'referrals')`,
    );
    const names = indexes.rows.map((r) => r.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'users_username_lower_key',
        'users_ref_code_key',
        'users_rank_mainnet_idx',
        'users_rank_devnet_idx',
        'user_wallets_wallet_key',
        'user_wallets_user_chain_key',
        'referrals_referrer_idx',
      ]),
    );
    // Trigram GIN where pg_trgm loads (PostgreSQL 15 contrib), a prefix btree otherwise (PGlite).
    expect(
      names.some((n) => n === 'users_username_trgm_idx' || n === 'users_username_prefix_idx'),
    ).toBe(true);
  });

  it('when a wallet is bound twice, a user gets a second wallet of one chain, or names clash by case, then the database refuses', async () => {
    const alice = await insertUser(db.knex, { username: 'mig-alice.ctss' });
    const bob = await insertUser(db.knex, { username: 'mig-bob.ctss' });
    await bindTestWallet(db.knex, alice, 'evm', evmAddress(101));
    expect(await sqlState(bindTestWallet(db.knex, bob, 'evm', evmAddress(101)))).toBe('23505');
    expect(await sqlState(bindTestWallet(db.knex, alice, 'evm', evmAddress(102)))).toBe('23505');
    expect(
      await sqlState(insertUser(db.knex, { username: 'MIG-ALICE.ctss', ref_code: 'other' })),
    ).toBe('23505');
    expect(await sqlState(refer(db.knex, alice, alice))).toBe('23514');
    expect(
      await sqlState(
        db.knex.raw(
          `insert into user_wallets (user_id, chain_type, address, address_key) values (?, 'tron', 'x', 'x')`,
          [bob],
        ),
      ),
    ).toBe('23514');
  });

  it('when rolled back and re-applied, then the tables go and come back', async () => {
    await db.knex.transaction(async (trx) => {
      await usersMigration.down(trx);
    });
    expect(await userTables()).toEqual([]);
    await db.knex.transaction(async (trx) => {
      await usersMigration.up(trx);
    });
    expect(await userTables()).toEqual(USER_TABLES);
  });
});

describe('rank job', () => {
  beforeAll(async () => {
    const a = await insertUser(db.knex, { username: 'a.ctss' });
    const b = await insertUser(db.knex, { username: 'b.ctss' });
    await bindTestWallet(db.knex, a, 'evm', evmAddress(1), { swap_points_mainnet: 1 });
    await bindTestWallet(db.knex, b, 'evm', evmAddress(2), { swap_points_mainnet: 2 });
  });
  it('when run with DATABASE_URL, then it stores the ranks of both networks and reports the changes', async () => {
    // The embedded PGlite serves one connection: close the test pool while the job runs.
    await db.knex.destroy();
    const result = await runRankJob({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    expect(result.ranks).toEqual({ mainnet: 2, devnet: 2 });
    expect(result.points).toMatchObject({ mode: 'rebuild', senders: 0, wallets: 0 });
    const check = createAdminKnex(db.url, { poolMax: 1 });
    try {
      const rows = await check.raw<{ rows: { username: string }[] }>(
        'select username from users order by domain_rank_mainnet',
      );
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
