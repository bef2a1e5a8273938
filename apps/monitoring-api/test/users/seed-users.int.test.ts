/** seedUsers on a real database: shape of the data, validity of every wallet, ranks, determinism. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRng } from '../../src/seed/rng.js';
import { generateUsers, seedUsers } from '../../src/seed/users.js';
import { parseWalletAddress } from '../../src/users/address.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const USERS = 2_000;

describe('seedUsers', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    expect(
      await seedUsers(db.database, createRng(7), {
        users: USERS,
        now: new Date('2026-11-21T00:00:00Z'),
      }),
    ).toBe(USERS);
  }, 120_000);
  afterAll(async () => {
    await db.drop();
  });

  it('when generated twice from one seed, then the users are identical; another seed gives others', () => {
    expect(generateUsers(createRng(7), 50, '.ctss')).toEqual(
      generateUsers(createRng(7), 50, '.ctss'),
    );
    expect(generateUsers(createRng(8), 50, '.ctss')).not.toEqual(
      generateUsers(createRng(7), 50, '.ctss'),
    );
  });

  it('when seeded, then every user has the suffix and wallets of all four chains exist and are well formed', async () => {
    const users = await db.knex.raw<{ rows: { n: number; suffixed: number }[] }>(
      `select count(*)::int as n, count(*) filter (where username like '%.ctss')::int as suffixed from users`,
    );
    expect(users.rows[0]).toEqual({ n: USERS, suffixed: USERS });
    const wallets = await db.knex.raw<{
      rows: {
        chain_type: 'evm' | 'solana' | 'sui' | 'aptos';
        address: string;
        address_key: string;
      }[];
    }>('select chain_type, address, address_key from user_wallets');
    expect(new Set(wallets.rows.map((w) => w.chain_type))).toEqual(
      new Set(['evm', 'solana', 'sui', 'aptos']),
    );
    for (const w of wallets.rows)
      expect(parseWalletAddress(w.chain_type, w.address)?.key).toBe(w.address_key);
  });

  it('when seeded, then points, referrals and NFT stakes are present and every user has a contiguous rank', async () => {
    const stats = await db.knex.raw<{ rows: Record<string, number>[] }>(
      `select (select count(*)::int from wallet_points where swap_points_mainnet > 0) as with_points,
              (select count(*)::int from referrals) as referrals,
              (select count(*)::int from users where staked_op_nfts + staked_eth_nfts > 0) as stakers,
              (select count(distinct domain_rank_mainnet)::int from users) as mainnet_ranks,
              (select max(domain_rank_devnet)::int from users) as devnet_max`,
    );
    const row = stats.rows[0] ?? {};
    expect(row.with_points).toBeGreaterThan(USERS / 4);
    expect(row.referrals).toBeGreaterThan(USERS / 10);
    expect(row.stakers).toBeGreaterThan(0);
    expect([row.mainnet_ranks, row.devnet_max]).toEqual([USERS, USERS]);
  });
});
