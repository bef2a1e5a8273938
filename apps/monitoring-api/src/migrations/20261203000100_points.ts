/**
 * Swap points from transfers (docs/decisions.md "D150. Swap points from transfers", "D151. Exact,
 * idempotent points"; src/points/recompute.ts).
 *
 * - `points_dirty`: (network, sender) of every transfer record inserted, updated or deleted since
 *   the points job last ran, appended by a statement trigger on `transactions` (also on COPY and
 *   on the indexer's reorg walk-back). Append-only with a serial id, so writers never wait on
 *   the job; duplicates are collapsed by the job.
 * - `wallet_swap_points`: the exact points of one sender on one network, millionths of a point
 *   (numeric), with the number of counted transfers; written only by the points job.
 * - `points_state`: the rule the stored points were computed with (one row): its version, its
 *   parameters, the time of the last rebuild and of the last run.
 */
import type { Knex } from 'knex';

/** Creates the tables and the trigger. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table points_dirty (
      id bigint generated always as identity primary key,
      network text not null,
      sender text not null
    );

    create table wallet_swap_points (
      network text not null check (network in ('mainnet', 'testnet')),
      sender text not null,
      chain_type text not null check (chain_type in ('evm', 'solana', 'sui', 'aptos')),
      address_key text not null,
      points_micro numeric(40, 0) not null check (points_micro >= 0),
      transfer_count bigint not null,
      primary key (network, sender, chain_type)
    );
    create index wallet_swap_points_key_idx on wallet_swap_points (chain_type, address_key);

    create table points_state (
      id smallint primary key check (id = 1),
      rule_version text not null,
      per_usd_micro bigint not null,
      multipliers jsonb not null,
      rebuilt_at timestamptz not null,
      ran_at timestamptz not null
    );

    create function ctss_points_mark_dirty() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        insert into points_dirty (network, sender) select distinct network, sender from new_rows;
      elsif tg_op = 'UPDATE' then
        insert into points_dirty (network, sender)
          select network, sender from new_rows union select network, sender from old_rows;
      else
        insert into points_dirty (network, sender) select distinct network, sender from old_rows;
      end if;
      return null;
    end
    $fn$;

    create trigger transactions_points_insert after insert on transactions
      referencing new table as new_rows for each statement execute function ctss_points_mark_dirty();
    create trigger transactions_points_update after update on transactions
      referencing old table as old_rows new table as new_rows
      for each statement execute function ctss_points_mark_dirty();
    create trigger transactions_points_delete after delete on transactions
      referencing old table as old_rows for each statement execute function ctss_points_mark_dirty();
  `);
}

/** Drops everything `up` created. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists transactions_points_insert on transactions;
    drop trigger if exists transactions_points_update on transactions;
    drop trigger if exists transactions_points_delete on transactions;
    drop function if exists ctss_points_mark_dirty();
    drop table if exists points_state;
    drop table if exists wallet_swap_points;
    drop table if exists points_dirty;
  `);
}
