/**
 * Fair attestation polling, reorgs of any depth and cursors keyed by chain identity
 * (docs/indexer.md "Attestation", "Writes, cursor and reorgs"):
 *
 * - `transactions.iris_attempts` and `iris_next_at`: the per-record backoff of the Iris poller
 *   (asked again when `iris_next_at` has passed), with an index over the due unattested records
 *   of each origin chain.
 * - `indexer_cursors` keyed by `(network, domain)` instead of the display name: the name stays
 *   as a label; `safe_block` records the highest block the writer counted final (a reorg below
 *   it is a deep reorg). Existing cursors keep their row with `network`/`domain` unset and are
 *   adopted by the first writer whose configured name matches (cursor.ts), so a running
 *   deployment resumes where it was.
 * - `indexer_block_hashes`: the hash of the last block of each written range (the cursor's
 *   history), the anchors the reorg repair walks back over to find the common ancestor.
 * - `iris_rate`: the next free request slot of the Iris budget shared by every indexer process.
 *
 * Runs on PostgreSQL 15 and on PGlite (PostgreSQL 17/18).
 */
import type { Knex } from 'knex';

/** Adds the columns, tables and indexes. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table transactions
      add column iris_attempts integer not null default 0 check (iris_attempts >= 0),
      add column iris_next_at timestamptz;
    create index transactions_iris_due_idx
      on transactions (network, source_domain, iris_next_at)
      where log_index is not null and not attested;

    alter table indexer_cursors drop constraint indexer_cursors_pkey;
    alter table indexer_cursors
      alter column chain drop not null,
      add column network text check (network in ('mainnet', 'testnet')),
      add column domain bigint check (domain >= 0),
      add column safe_block bigint,
      add constraint indexer_cursors_identity check ((network is null) = (domain is null));
    create unique index indexer_cursors_chain_key on indexer_cursors (network, domain)
      where domain is not null;
    create unique index indexer_cursors_legacy_name on indexer_cursors (chain)
      where domain is null;

    create table indexer_block_hashes (
      network text not null check (network in ('mainnet', 'testnet')),
      domain bigint not null check (domain >= 0),
      block_number bigint not null check (block_number >= 0),
      block_hash text not null check (length(block_hash) between 1 and 128),
      primary key (network, domain, block_number)
    );

    create table iris_rate (
      name text primary key check (length(name) between 1 and 64),
      next_at timestamptz not null
    );
  `);
}

/** Drops what `up` added; cursors go back to their name (unnamed ones are dropped). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists iris_rate;
    drop table if exists indexer_block_hashes;
    drop index if exists indexer_cursors_legacy_name;
    drop index if exists indexer_cursors_chain_key;
    delete from indexer_cursors where chain is null;
    alter table indexer_cursors
      drop constraint if exists indexer_cursors_identity,
      drop column if exists safe_block,
      drop column if exists domain,
      drop column if exists network,
      alter column chain set not null,
      add primary key (chain);
    drop index if exists transactions_iris_due_idx;
    alter table transactions
      drop column if exists iris_next_at,
      drop column if exists iris_attempts;
  `);
}
