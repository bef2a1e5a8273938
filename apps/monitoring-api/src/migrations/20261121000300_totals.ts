/**
 * Lifetime totals and daily rollups kept by the rollup trigger, so the statistics read one or a
 * few rows instead of re-summing the hourly rollups or counting `tx_senders` on every request
 * (packages/bench/FINDINGS.md "Monitoring API: statistics").
 *
 * - `tx_network_totals`: per network: record count, volume (sum deposit_amount), fee
 *   (sum deposit_amount - receive_amount), relayer fee, and `senders`, the number of rows of
 *   `tx_senders` of that network (the distinct-sender count). A network row stays once created.
 * - `tx_domain_totals`: per (network, source_domain) the same amounts and count (chain shares);
 *   a row whose count drops to zero is removed, as in `tx_hourly_rollups`.
 * - `tx_daily_rollups`: per (network, UTC day) the same amounts and count (daily series); a row
 *   whose count drops to zero is removed.
 *
 * `ctss_transactions_rollup()` (statement-level, transition tables) now keeps all five derived
 * tables in one statement per change: the delta of the statement is computed once, the sender
 * upsert returns which senders are new (`xmax = 0` marks an inserted row), and the cleanup that
 * removes senders whose count reached zero returns them, so `senders` stays the exact distinct
 * count. A TRUNCATE of `transactions` empties every derived table (an after-truncate trigger
 * deleting their rows).
 * Bulk loads (COPY, multi-row INSERT) go through the same statement triggers.
 *
 * The migration locks `transactions` against writes while it swaps the function and backfills the
 * new tables from `tx_hourly_rollups` and `tx_senders`, so no change falls between the two.
 * Runs on PostgreSQL 15 and on PGlite (PostgreSQL 17/18).
 */
import type { Knex } from 'knex';

/** SQL delta rows (network, source_domain, sender, bucket, amounts, sign) from a transition table. */
const delta = (table: 'new_rows' | 'old_rows', sign: 1 | -1): string => `
  select network, sender, source_domain, date_trunc('hour', created_at, 'UTC') as bucket,
         ${sign}::bigint as n,
         ${sign}::numeric * deposit_amount as volume,
         ${sign}::numeric * (deposit_amount - receive_amount) as fee,
         ${sign}::numeric * relayer_fee as relayer_fee
    from ${table}`;

/**
 * Upsert of one amounts table from the delta rows `from` (default the delta `d`), grouped by
 * `keys` (rows in key order: a stable lock order between concurrent writers).
 */
const upsertAmounts = (table: string, keys: string, from = 'd'): string => `
    insert into ${table} as r (${keys}, tx_count, volume, fee, relayer_fee)
    select ${keys}, sum(n), sum(volume), sum(fee), sum(relayer_fee)
      from ${from}
     group by ${keys}
    having sum(n) <> 0 or sum(volume) <> 0 or sum(fee) <> 0 or sum(relayer_fee) <> 0
     order by ${keys}
    on conflict (${keys}) do update
       set tx_count = r.tx_count + excluded.tx_count,
           volume = r.volume + excluded.volume,
           fee = r.fee + excluded.fee,
           relayer_fee = r.relayer_fee + excluded.relayer_fee`;

/** One statement applying a delta (union of transition-table selects) to every derived table. */
const applyDelta = (source: string): string => `
    with d as materialized (${source}),
    hourly as (${upsertAmounts('tx_hourly_rollups', 'network, bucket, source_domain')}),
    daily as (${upsertAmounts(
      'tx_daily_rollups',
      'network, bucket',
      `(select network, date_trunc('day', bucket, 'UTC') as bucket, n, volume, fee, relayer_fee from d) day_delta`,
    )}),
    domains as (${upsertAmounts('tx_domain_totals', 'network, source_domain')}),
    senders as (
      insert into tx_senders as s (network, sender, tx_count)
      select network, sender, sum(n)
        from d
       group by network, sender
      having sum(n) <> 0
       order by network, sender
      on conflict (network, sender) do update set tx_count = s.tx_count + excluded.tx_count
      returning s.network, (s.xmax = 0) as inserted)
    insert into tx_network_totals as t (network, tx_count, volume, fee, relayer_fee, senders)
    select a.network, a.n, a.volume, a.fee, a.relayer_fee, coalesce(s.added, 0)
      from (select network, sum(n) as n, sum(volume) as volume, sum(fee) as fee, sum(relayer_fee) as relayer_fee
              from d group by network) a
      left join (select network, count(*) filter (where inserted) as added from senders group by network) s
        on s.network = a.network
     where a.n <> 0 or a.volume <> 0 or a.fee <> 0 or a.relayer_fee <> 0 or coalesce(s.added, 0) <> 0
     order by a.network
    on conflict (network) do update
       set tx_count = t.tx_count + excluded.tx_count,
           volume = t.volume + excluded.volume,
           fee = t.fee + excluded.fee,
           relayer_fee = t.relayer_fee + excluded.relayer_fee,
           senders = t.senders + excluded.senders;`;

/** Removes the rows a delete or update emptied; removed senders leave the distinct count. */
const CLEANUP = `
    delete from tx_hourly_rollups r
     using (select distinct network, date_trunc('hour', created_at, 'UTC') as bucket, source_domain from old_rows) o
     where r.network = o.network and r.bucket = o.bucket and r.source_domain = o.source_domain and r.tx_count = 0;
    delete from tx_daily_rollups r
     using (select distinct network, date_trunc('day', created_at, 'UTC') as bucket from old_rows) o
     where r.network = o.network and r.bucket = o.bucket and r.tx_count = 0;
    delete from tx_domain_totals r
     using (select distinct network, source_domain from old_rows) o
     where r.network = o.network and r.source_domain = o.source_domain and r.tx_count = 0;
    with removed as (
      delete from tx_senders s
       using (select distinct network, sender from old_rows) o
       where s.network = o.network and s.sender = o.sender and s.tx_count <= 0
      returning s.network)
    update tx_network_totals t
       set senders = t.senders - g.n
      from (select network, count(*) as n from removed group by network) g
     where t.network = g.network;`;

/** The new body of ctss_transactions_rollup(). */
const ROLLUP_FUNCTION = `
    create or replace function ctss_transactions_rollup() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        ${applyDelta(delta('new_rows', 1))}
      elsif tg_op = 'UPDATE' then
        ${applyDelta(`${delta('old_rows', -1)} union all ${delta('new_rows', 1)}`)}
        ${CLEANUP}
      elsif tg_op = 'DELETE' then
        ${applyDelta(delta('old_rows', -1))}
        ${CLEANUP}
      end if;
      return null;
    end
    $fn$;`;

/** The function as migration 20261121000100 created it (restored by `down`). */
const PREVIOUS_ROLLUP_FUNCTION = (() => {
  const previousApply = (source: string): string => `
    insert into tx_hourly_rollups as r (network, bucket, source_domain, tx_count, volume, fee, relayer_fee)
    select network, bucket, source_domain, sum(n), sum(volume), sum(fee), sum(relayer_fee)
      from (${source}) d
     group by network, bucket, source_domain
    having sum(n) <> 0 or sum(volume) <> 0 or sum(fee) <> 0 or sum(relayer_fee) <> 0
     order by network, bucket, source_domain
    on conflict (network, bucket, source_domain) do update
       set tx_count = r.tx_count + excluded.tx_count,
           volume = r.volume + excluded.volume,
           fee = r.fee + excluded.fee,
           relayer_fee = r.relayer_fee + excluded.relayer_fee;

    insert into tx_senders as s (network, sender, tx_count)
    select network, sender, sum(n)
      from (${source}) d
     group by network, sender
    having sum(n) <> 0
     order by network, sender
    on conflict (network, sender) do update set tx_count = s.tx_count + excluded.tx_count;`;
  const previousCleanup = `
    delete from tx_hourly_rollups r
     using (select distinct network, date_trunc('hour', created_at, 'UTC') as bucket, source_domain from old_rows) o
     where r.network = o.network and r.bucket = o.bucket and r.source_domain = o.source_domain and r.tx_count = 0;
    delete from tx_senders s
     using (select distinct network, sender from old_rows) o
     where s.network = o.network and s.sender = o.sender and s.tx_count <= 0;`;
  return `
    create or replace function ctss_transactions_rollup() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        ${previousApply(delta('new_rows', 1))}
      elsif tg_op = 'UPDATE' then
        ${previousApply(`${delta('old_rows', -1)} union all ${delta('new_rows', 1)}`)}
        ${previousCleanup}
      elsif tg_op = 'DELETE' then
        ${previousApply(delta('old_rows', -1))}
        ${previousCleanup}
      end if;
      return null;
    end
    $fn$;`;
})();

/** Creates the totals tables, backfills them and switches the trigger function. */
export async function up(knex: Knex): Promise<void> {
  // Revision marker: the PGlite test template is keyed by this function's text.
  await knex.raw(`-- totals revision 2
    lock table transactions in share row exclusive mode;

    create table tx_network_totals (
      network text primary key,
      tx_count bigint not null,
      volume numeric not null,
      fee numeric not null,
      relayer_fee numeric not null,
      senders bigint not null
    );

    create table tx_domain_totals (
      network text not null,
      source_domain bigint not null,
      tx_count bigint not null,
      volume numeric not null,
      fee numeric not null,
      relayer_fee numeric not null,
      primary key (network, source_domain)
    );

    create table tx_daily_rollups (
      network text not null,
      bucket timestamptz not null,
      tx_count bigint not null,
      volume numeric not null,
      fee numeric not null,
      relayer_fee numeric not null,
      primary key (network, bucket)
    );

    insert into tx_daily_rollups (network, bucket, tx_count, volume, fee, relayer_fee)
    select network, date_trunc('day', bucket, 'UTC'), sum(tx_count), sum(volume), sum(fee), sum(relayer_fee)
      from tx_hourly_rollups group by 1, 2;

    insert into tx_domain_totals (network, source_domain, tx_count, volume, fee, relayer_fee)
    select network, source_domain, sum(tx_count), sum(volume), sum(fee), sum(relayer_fee)
      from tx_hourly_rollups group by 1, 2;

    insert into tx_network_totals (network, tx_count, volume, fee, relayer_fee, senders)
    select network, coalesce(h.n, 0), coalesce(h.volume, 0), coalesce(h.fee, 0), coalesce(h.relayer_fee, 0),
           coalesce(s.n, 0)
      from (select network, sum(tx_count) as n, sum(volume) as volume, sum(fee) as fee, sum(relayer_fee) as relayer_fee
              from tx_hourly_rollups group by network) h
      full join (select network, count(*) as n from tx_senders group by network) s using (network);

    create function ctss_transactions_truncate() returns trigger language plpgsql as $fn$
    begin
      -- delete, not truncate: the same TRUNCATE command may be emptying some of these tables.
      delete from tx_hourly_rollups;
      delete from tx_daily_rollups;
      delete from tx_senders;
      delete from tx_network_totals;
      delete from tx_domain_totals;
      return null;
    end
    $fn$;

    create trigger transactions_rollup_truncate after truncate on transactions
      for each statement execute function ctss_transactions_truncate();

    ${ROLLUP_FUNCTION}
  `);
}

/** Restores the previous trigger function and drops the totals tables. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    lock table transactions in share row exclusive mode;
    ${PREVIOUS_ROLLUP_FUNCTION}
    drop trigger if exists transactions_rollup_truncate on transactions;
    drop function if exists ctss_transactions_truncate();
    drop table if exists tx_network_totals;
    drop table if exists tx_domain_totals;
    drop table if exists tx_daily_rollups;
  `);
}
