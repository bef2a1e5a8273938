import { describe, expect, it } from '@jest/globals';
import { type TestDatabase, useTestDatabase } from '../../test/support/database.js';
import { aTransaction, insertAll } from '../../test/support/builders.js';
import { expectRollupsExact } from '../../test/support/rollups.js';
import { migrateLatest, migrateRollbackAll, migrations, migratorConfig } from './index.js';

const tables = async (db: TestDatabase): Promise<string[]> => {
  const result = await db.knex.raw<{ rows: { table_name: string }[] }>(
    `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return result.rows.map((row) => row.table_name);
};

describe('migrations, on a real database', () => {
  const db = useTestDatabase({ migrate: false });

  it('when migrated up, then every migration is applied and the tables exist', async () => {
    const applied = await migrateLatest(db.knex);
    expect(applied).toEqual(migrations.map((m) => m.name));
    expect(await tables(db)).toEqual(
      expect.arrayContaining(['transactions', 'tx_hourly_rollups', 'tx_senders']),
    );
    expect(await migrateLatest(db.knex)).toEqual([]);
  });

  it('when rolled back, then only the bookkeeping tables remain, and it migrates up again', async () => {
    await migrateRollbackAll(db.knex);
    expect((await tables(db)).filter((name) => !name.startsWith('knex_migrations'))).toEqual([]);
    expect(await migrateLatest(db.knex)).toEqual(migrations.map((m) => m.name));
  });

  it('when the totals migration runs over existing transfers, then it backfills them exact and the trigger keeps them', async () => {
    await migrateRollbackAll(db.knex);
    while ((await db.knex.migrate.currentVersion(migratorConfig)) !== '20261121000200') {
      await db.knex.migrate.up(migratorConfig);
    }
    const hour = 3_600_000;
    const start = Date.parse('2026-11-19T20:00:00Z');
    await insertAll(
      db.database,
      Array.from({ length: 40 }, (_, i) =>
        aTransaction({
          network: i % 5 === 0 ? 'testnet' : 'mainnet',
          created_at: new Date(start + i * 3 * hour),
          source_domain: i % 3,
          sender: `0xab0000000000000000000000000000000000000${i % 7}`,
          deposit_amount: BigInt(1_000 + i * 17),
          receive_amount: BigInt(900 + i),
          relayer_fee: BigInt(i),
        }),
      ),
    );
    expect(await migrateLatest(db.knex)).toEqual(migrations.slice(2).map((m) => m.name));
    await expectRollupsExact(db.knex);
    await db.knex('transactions').whereRaw('id % 4 = 0').delete();
    await db
      .knex('transactions')
      .whereRaw('id % 3 = 0')
      .update({ sender: '0xcd00000000000000000000000000000000000001' });
    await expectRollupsExact(db.knex);
    while ((await db.knex.migrate.currentVersion(migratorConfig)) !== '20261121000200') {
      await db.knex.migrate.down(migratorConfig);
    }
    await db.knex('transactions').whereRaw('id % 5 = 0').delete();
    const [{ ok }] = (
      await db.knex.raw<{ rows: { ok: boolean }[] }>(
        `select (select count(*) from tx_senders) = (select count(*) from (select distinct network, sender from transactions) s)
            and (select sum(tx_count) from tx_hourly_rollups) = (select count(*) from transactions) as ok`,
      )
    ).rows as [{ ok: boolean }];
    expect(ok).toBe(true);
    expect(await migrateLatest(db.knex)).toEqual(migrations.slice(2).map((m) => m.name));
    await expectRollupsExact(db.knex);
  });
});
