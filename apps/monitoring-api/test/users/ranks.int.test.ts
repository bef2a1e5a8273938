/** recomputeRanks on a real database: order, ties, both networks, one transaction, idempotence. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { recomputeRanks } from '../../src/users/ranks.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { bindTestWallet, evmAddress, insertUser, setWalletPoints } from './builders.js';

async function ranks(db: TestDatabase): Promise<{ username: string; mainnet: number | null; devnet: number | null }[]> {
  const result = await db.knex.raw<{ rows: { username: string; mainnet: number | null; devnet: number | null }[] }>(
    'select username, domain_rank_mainnet as mainnet, domain_rank_devnet as devnet from users order by id',
  );
  return result.rows;
}

describe('recomputeRanks', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    // mainnet totals: carol (10+5 nft)*2 = 30, alice 20, bob 20 (tie, alice older), dave 0.
    // devnet totals: bob 50, dave 7, alice 1, carol 0.
    const alice = await insertUser(db.knex, { username: 'alice.ctss' });
    const bob = await insertUser(db.knex, { username: 'bob.ctss' });
    const carol = await insertUser(db.knex, { username: 'carol.ctss', domain_multiplier: 2, nft_points: 5 });
    const dave = await insertUser(db.knex, { username: 'dave.ctss' });
    await bindTestWallet(db.knex, alice, 'evm', evmAddress(1), { swap_points_mainnet: 10, points_multiplier: 2, swap_points: 1 });
    await bindTestWallet(db.knex, bob, 'evm', evmAddress(2), { swap_points_mainnet: 20, swap_points: 25, points_multiplier: 1 });
    await bindTestWallet(db.knex, bob, 'solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', { swap_points: 25 });
    await bindTestWallet(db.knex, carol, 'evm', evmAddress(3), { swap_points_mainnet: 10 });
    await bindTestWallet(db.knex, dave, 'sui', `0x${'d'.repeat(64)}`, { swap_points: 7 });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when ranks were never computed, then every user is unranked', async () => {
    expect((await ranks(db)).every((r) => r.mainnet === null && r.devnet === null)).toBe(true);
  });

  it('when computed, then both networks rank by multiplied total desc, ties by older account', async () => {
    expect(await recomputeRanks(db.knex)).toEqual({ mainnet: 4, devnet: 4 });
    expect(await ranks(db)).toEqual([
      { username: 'alice.ctss', mainnet: 2, devnet: 3 },
      { username: 'bob.ctss', mainnet: 3, devnet: 1 },
      { username: 'carol.ctss', mainnet: 1, devnet: 4 },
      { username: 'dave.ctss', mainnet: 4, devnet: 2 },
    ]);
  });

  it('when nothing changed, then a second run writes no row; when points change, only moved users are written', async () => {
    expect(await recomputeRanks(db.knex)).toEqual({ mainnet: 0, devnet: 0 });
    await setWalletPoints(db.knex, 'sui', `0x${'d'.repeat(64)}`, { swap_points: 7, swap_points_mainnet: 100 });
    expect(await recomputeRanks(db.knex)).toEqual({ mainnet: 4, devnet: 0 });
    expect((await ranks(db)).map((r) => r.mainnet)).toEqual([3, 4, 2, 1]);
  });

  it('when two runs overlap, then both finish and the result is the same ranking', async () => {
    const [a, b] = await Promise.all([recomputeRanks(db.knex), recomputeRanks(db.knex)]);
    expect(a.mainnet + b.mainnet).toBe(0);
    expect((await ranks(db)).map((r) => r.mainnet)).toEqual([3, 4, 2, 1]);
  });
});
