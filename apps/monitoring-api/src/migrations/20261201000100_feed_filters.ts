/**
 * The index of the feeds' `status` filter (docs/api.md "Transaction feeds"): records of one
 * `destination_tx_status`, newest first, so a page of the rare `pending` or `failed` records reads
 * only those rows instead of walking the whole feed index past the `success` ones. The other
 * filters have theirs already: `recipients` the recipient index, `domain` the source and
 * destination domain indexes (one branch each), the lookups the source_tx_hash index
 * (20261121000100_transactions).
 * Runs on PostgreSQL 15 and on PGlite (PostgreSQL 17/18).
 */
import type { Knex } from 'knex';

/** Creates the status index. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index transactions_status_idx
      on transactions (network, destination_tx_status, created_at desc, id desc);
  `);
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists transactions_status_idx;`);
}
