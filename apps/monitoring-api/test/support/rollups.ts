/** Cross-checks of the trigger-kept statistics tables against the raw rows (shared by the integration tests). */
import { expect } from '@jest/globals';
import type { Knex } from 'knex';

/** Rows of a query as plain objects with text values. */
export async function rows(
  knex: Knex,
  sql: string,
  bindings: readonly (string | number)[] = [],
): Promise<Record<string, string>[]> {
  const result = await knex.raw<{ rows: Record<string, string>[] }>(sql, bindings);
  return result.rows;
}

/**
 * Asserts that every trigger-kept table (hourly and daily rollups, senders, per-network and
 * per-source-domain totals) equals its value recomputed from the raw `transactions` rows.
 */
export async function expectRollupsExact(knex: Knex): Promise<void> {
  /** Asserts that the rows of `keptSql` equal those of `rawSql` (queried first). */
  const expectKept = async (rawSql: string, keptSql: string) => {
    const fromRaw = await rows(knex, rawSql);
    expect(await rows(knex, keptSql)).toEqual(fromRaw);
  };
  await expectKept(
    `select network, date_trunc('hour', created_at, 'UTC')::text as bucket, source_domain::text,
            count(*)::text as tx_count, sum(deposit_amount)::text as volume,
            sum(deposit_amount - receive_amount)::text as fee, sum(relayer_fee)::text as relayer_fee
       from transactions group by 1, 2, 3 order by 1, 2, 3`,
    `select network, bucket::text, source_domain::text, tx_count::text, volume::text, fee::text, relayer_fee::text
       from tx_hourly_rollups order by 1, 2, 3`,
  );
  await expectKept(
    `select network, sender, count(*)::text as n from transactions group by 1, 2 order by 1, 2`,
    `select network, sender, tx_count::text as n from tx_senders order by 1, 2`,
  );
  await expectKept(
    `select network, date_trunc('day', created_at, 'UTC')::text as bucket,
            count(*)::text as tx_count, sum(deposit_amount)::text as volume,
            sum(deposit_amount - receive_amount)::text as fee, sum(relayer_fee)::text as relayer_fee
       from transactions group by 1, 2 order by 1, 2`,
    `select network, bucket::text, tx_count::text, volume::text, fee::text, relayer_fee::text from tx_daily_rollups order by 1, 2`,
  );
  await expectKept(
    `select network, source_domain::text, count(*)::text as tx_count, sum(deposit_amount)::text as volume,
            sum(deposit_amount - receive_amount)::text as fee, sum(relayer_fee)::text as relayer_fee
       from transactions group by 1, 2 order by 1, 2`,
    `select network, source_domain::text, tx_count::text, volume::text, fee::text, relayer_fee::text from tx_domain_totals order by 1, 2`,
  );
  // A network row stays once created (zero when its records are gone).
  await expectKept(
    `select n.network, count(t.id)::text as tx_count, coalesce(sum(t.deposit_amount), 0)::text as volume,
            coalesce(sum(t.deposit_amount - t.receive_amount), 0)::text as fee,
            coalesce(sum(t.relayer_fee), 0)::text as relayer_fee, count(distinct t.sender)::text as senders
       from tx_network_totals n left join transactions t on t.network = n.network group by 1 order by 1`,
    `select network, tx_count::text, volume::text, fee::text, relayer_fee::text, senders::text from tx_network_totals order by 1`,
  );
  const [missing] = await rows(
    knex,
    `select count(*)::text as n from (select distinct network from transactions) t
      where not exists (select 1 from tx_network_totals n where n.network = t.network)`,
  );
  expect(missing!.n).toBe('0');
}
