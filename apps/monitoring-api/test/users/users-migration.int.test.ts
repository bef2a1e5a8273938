/** The users migration on a real database: up, constraints, indexes, down. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as usersMigration from '../../src/migrations/20261121000200_users.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { bindTestWallet, evmAddress, insertUser, refer } from './builders.js';

const USER_TABLES = ['referrals', 'user_wallets', 'users', 'wallet_points'];

async function userTables(db: TestDatabase): Promise<string[]> {
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

describe('users migration, on a real database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when migrated, then the users tables and an index for every filter and sort exist', async () => {
    expect(await userTables(db)).toEqual(USER_TABLES);
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
    expect(names.some((n) => n === 'users_username_trgm_idx' || n === 'users_username_prefix_idx')).toBe(true);
  });

  it('when a wallet is bound twice, a user gets a second wallet of one chain, or names clash by case, then the database refuses', async () => {
    const alice = await insertUser(db.knex, { username: 'alice.ctss' });
    const bob = await insertUser(db.knex, { username: 'bob.ctss' });
    await bindTestWallet(db.knex, alice, 'evm', evmAddress(1));
    expect(await sqlState(bindTestWallet(db.knex, bob, 'evm', evmAddress(1)))).toBe('23505');
    expect(await sqlState(bindTestWallet(db.knex, alice, 'evm', evmAddress(2)))).toBe('23505');
    expect(await sqlState(insertUser(db.knex, { username: 'ALICE.ctss', ref_code: 'other' }))).toBe('23505');
    expect(await sqlState(refer(db.knex, alice, alice))).toBe('23514');
    expect(
      await sqlState(db.knex.raw(`insert into user_wallets (user_id, chain_type, address, address_key) values (?, 'tron', 'x', 'x')`, [bob])),
    ).toBe('23514');
  });

  it('when rolled back and re-applied, then the tables go and come back', async () => {
    await db.knex.transaction(async (trx) => {
      await usersMigration.down(trx);
    });
    expect(await userTables(db)).toEqual([]);
    await db.knex.transaction(async (trx) => {
      await usersMigration.up(trx);
    });
    expect(await userTables(db)).toEqual(USER_TABLES);
  });
});
