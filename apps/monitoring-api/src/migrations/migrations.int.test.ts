import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { migrateLatest, migrateRollbackAll, migrations } from './index.js';

const tables = async (db: TestDatabase): Promise<string[]> => {
  const result = await db.knex.raw<{ rows: { table_name: string }[] }>(
    `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return result.rows.map((row) => row.table_name);
};

describe('migrations, on a real database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when migrated up, then every migration is applied and the tables exist', async () => {
    const applied = await migrateLatest(db.knex);
    expect(applied).toEqual(migrations.map((m) => m.name));
    expect(await tables(db)).toEqual(expect.arrayContaining(['transactions', 'tx_hourly_rollups', 'tx_senders']));
    expect(await migrateLatest(db.knex)).toEqual([]);
  });

  it('when rolled back, then only the bookkeeping tables remain, and it migrates up again', async () => {
    await migrateRollbackAll(db.knex);
    expect((await tables(db)).filter((name) => !name.startsWith('knex_migrations'))).toEqual([]);
    expect(await migrateLatest(db.knex)).toEqual(migrations.map((m) => m.name));
  });
});
