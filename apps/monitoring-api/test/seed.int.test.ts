/** The demo data loader on a real database: counts, exact rollups, INSERT and (real server) COPY paths. */
import { describe, expect, it } from '@jest/globals';
import type { Knex } from 'knex';
import { seedDemoData } from '../src/seed/index.js';
import { insertTransactions, withIndexesDeferred } from '../src/seed/writer.js';
import { aTransaction } from './support/builders.js';
import { useTestDatabase } from './support/database.js';
import { expectRollupsExact } from './support/rollups.js';

const NOW = new Date('2026-11-21T12:00:00Z');

async function rollupsMatchRaw(knex: Knex): Promise<boolean> {
  const result = await knex.raw<{ rows: { diff: string }[] }>(`
    with raw as (
      select network, date_trunc('hour', created_at, 'UTC') as bucket, source_domain,
             count(*) as tx_count, sum(deposit_amount)::numeric as volume,
             sum(deposit_amount - receive_amount)::numeric as fee, sum(relayer_fee)::numeric as relayer_fee
        from transactions group by 1, 2, 3)
    select count(*)::text as diff from (
      (select * from raw except select * from tx_hourly_rollups)
      union all
      (select * from tx_hourly_rollups except select * from raw)) d`);
  return result.rows[0]?.diff === '0';
}

describe('seedDemoData', () => {
  const db = useTestDatabase();

  it('when seeding with INSERT, then transfers and users are written and rollups are exact', async () => {
    const result = await seedDemoData(db.database, {
      transactions: 1500,
      users: 30,
      seed: 1,
      now: NOW,
      method: 'insert',
    });
    expect(result).toMatchObject({ transactions: 1500, users: 30 });
    const [{ count }] = (await db.knex('transactions').count('* as count')) as [{ count: string }];
    expect(Number(count)).toBe(1500);
    expect(await rollupsMatchRaw(db.knex)).toBe(true);
    const senders = await db.knex.raw<{ rows: { ok: boolean }[] }>(
      `select (select count(*) from tx_senders) = (select count(*) from (select distinct network, sender from transactions) s) as ok`,
    );
    expect(senders.rows[0]?.ok).toBe(true);
    await expectRollupsExact(db.knex);
  });

  it('when only transactions is truncated, then every derived table is emptied with it', async () => {
    await seedDemoData(db.database, {
      transactions: 50,
      users: 0,
      seed: 9,
      now: NOW,
      method: 'insert',
    });
    await db.knex.raw('truncate transactions');
    for (const table of [
      'tx_hourly_rollups',
      'tx_daily_rollups',
      'tx_senders',
      'tx_network_totals',
      'tx_domain_totals',
    ]) {
      const [{ count }] = (await db.knex(table).count('* as count')) as [{ count: string }];
      expect([table, Number(count)]).toEqual([table, 0]);
    }
    await seedDemoData(db.database, {
      transactions: 40,
      users: 0,
      seed: 10,
      now: NOW,
      method: 'insert',
    });
    await expectRollupsExact(db.knex);
  });

  /** The definitions of the indexes of `transactions`, by name. */
  const indexes = async () =>
    (
      await db.knex.raw<{ rows: { indexdef: string }[] }>(
        `select indexdef from pg_indexes where tablename = 'transactions' order by indexname`,
      )
    ).rows.map((r) => r.indexdef);

  it('when loading with indexes deferred, then the same indexes exist afterwards and the data is exact', async () => {
    const before = await indexes();
    expect(before.length).toBeGreaterThanOrEqual(8);
    let during: string[] = [];
    await db.knex.raw('truncate transactions, tx_hourly_rollups, tx_senders restart identity');
    await withIndexesDeferred(db.database, async () => {
      during = await indexes();
      return seedDemoData(db.database, {
        transactions: 800,
        users: 0,
        seed: 3,
        now: NOW,
        method: 'insert',
      });
    });
    expect(during).toHaveLength(1);
    expect(await indexes()).toEqual(before);
    expect(await rollupsMatchRaw(db.knex)).toBe(true);
    await expectRollupsExact(db.knex);
  });

  it('when the load with indexes deferred fails, then every index is rebuilt and the load error is thrown', async () => {
    const before = await indexes();
    await expect(
      withIndexesDeferred(db.database, async () => {
        await insertTransactions(db.database, [aTransaction()]);
        throw new Error('the load failed');
      }),
    ).rejects.toThrow('the load failed');
    expect(await indexes()).toEqual(before);
  });

  it('when one index cannot be rebuilt, then the others are rebuilt and its error is thrown', async () => {
    const before = await indexes();
    const unique = before.find((definition) => definition.includes('transactions_origin_log_key'));
    expect(unique).toBeDefined();
    await db.knex.raw('truncate transactions, tx_hourly_rollups, tx_senders restart identity');
    const hash = `0x${'d4'.repeat(32)}`;
    await expect(
      withIndexesDeferred(db.database, async () => {
        // Two records of one origin log: the unique index over that key cannot be built again.
        await insertTransactions(db.database, [
          aTransaction({ source_tx_hash: hash }),
          aTransaction({ source_tx_hash: hash }),
        ]);
        await db.database.execute('update transactions set log_index = 0');
      }),
    ).rejects.toThrow(/transactions_origin_log_key/);
    expect(await indexes()).toEqual(before.filter((definition) => definition !== unique));
    await db.knex.raw('truncate transactions, tx_hourly_rollups, tx_senders restart identity');
    await db.knex.raw(unique!);
    expect(await indexes()).toEqual(before);
  });

  const copyIt = process.env.DATABASE_URL ? it : it.skip;
  if (!process.env.DATABASE_URL)
    console.info(
      'COPY seeding test skipped: DATABASE_URL is not set (the embedded server does not speak COPY)',
    );
  copyIt(
    'when seeding with COPY on a real server, then rows arrive in several statements and rollups are exact',
    async () => {
      await db.knex.raw('truncate transactions, tx_hourly_rollups, tx_senders restart identity');
      const result = await seedDemoData(db.database, {
        transactions: 5000,
        users: 0,
        seed: 2,
        now: NOW,
        method: 'copy',
        url: db.url,
        copyRowsPerStatement: 1200,
      });
      expect(result.transactions).toBe(5000);
      const [{ count }] = (await db.knex('transactions').count('* as count')) as [
        { count: string },
      ];
      expect(Number(count)).toBe(5000);
      expect(await rollupsMatchRaw(db.knex)).toBe(true);
      await expectRollupsExact(db.knex);
    },
  );
});
