/**
 * What the transfer indexer needs (docs/indexer.md "Schema"), added without changing what the
 * existing readers select:
 *
 * - `transactions`: the origin log's `log_index`, `block_number` and `block_hash` (NULL on rows
 *   not written by the indexer, e.g. the demo seed); `cctp_nonce` (v1: the uint64 nonce in
 *   decimal; v2: the bytes32 `eventNonce` from Iris as 0x hex) to match the destination's
 *   `MessageReceived`; `attested` and `iris_checked_at` for the attestation poller. A unique
 *   index over (network, source_domain, source_tx_hash, log_index) makes writes idempotent
 *   (`on conflict do update`); NULL log indexes never conflict, so seeded rows are untouched.
 * - `indexer_cursors`: per chain, the last scanned block number and hash (reorg detection).
 * - `cctp_received`: `MessageReceived` logs seen on an indexed chain as destination, with the
 *   minted amount, so a record is completed whichever of its two chains is scanned first.
 *
 * Updates of the new columns go through the statement-level rollup trigger like any update;
 * its deltas only depend on network, sender, domain, hour and amounts, so they stay exact.
 * Runs on PostgreSQL 15 and on PGlite (PostgreSQL 17/18).
 */
import type { Knex } from 'knex';

/** Adds the columns, indexes and tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table transactions
      add column log_index integer check (log_index >= 0),
      add column block_number bigint check (block_number >= 0),
      add column block_hash text check (length(block_hash) between 1 and 128),
      add column cctp_nonce text check (length(cctp_nonce) between 1 and 80),
      add column attested boolean not null default false,
      add column iris_checked_at timestamptz;

    create unique index transactions_origin_log_key
      on transactions (network, source_domain, source_tx_hash, log_index);
    -- The indexer's working sets: unconfirmed rows of an origin chain (confirmation, reorg),
    -- unattested rows (Iris poller), undelivered rows by their CCTP key (destination matching).
    create index transactions_unconfirmed_idx on transactions (network, source_domain, block_number)
      where log_index is not null and not confirmed;
    create index transactions_unattested_idx on transactions (created_at)
      where log_index is not null and not attested;
    create index transactions_undelivered_idx
      on transactions (network, destination_domain, source_domain, version, cctp_nonce)
      where log_index is not null and destination_tx_hash is null;

    create table indexer_cursors (
      chain text primary key check (length(chain) between 1 and 64),
      block_number bigint not null check (block_number >= 0),
      block_hash text not null check (length(block_hash) between 1 and 128),
      updated_at timestamptz not null default now()
    );

    create table cctp_received (
      network text not null check (network in ('mainnet', 'testnet')),
      destination_domain bigint not null,
      source_domain bigint not null,
      version smallint not null,
      nonce text not null,
      tx_hash text not null,
      log_index integer not null,
      block_number bigint not null,
      block_hash text not null,
      mint_amount bigint,
      primary key (network, destination_domain, tx_hash, log_index)
    );
    create index cctp_received_match_idx on cctp_received (network, destination_domain, source_domain, version, nonce);
  `);
}

/** Drops what `up` added. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists cctp_received;
    drop table if exists indexer_cursors;
    drop index if exists transactions_undelivered_idx;
    drop index if exists transactions_unattested_idx;
    drop index if exists transactions_unconfirmed_idx;
    drop index if exists transactions_origin_log_key;
    alter table transactions
      drop column if exists iris_checked_at,
      drop column if exists attested,
      drop column if exists cctp_nonce,
      drop column if exists block_hash,
      drop column if exists block_number,
      drop column if exists log_index;
  `);
}
