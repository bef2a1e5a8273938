/**
 * The time up to which a chain is indexed for good (docs/indexer.md "Writes, cursor and reorgs";
 * docs/api.md "Compression and HTTP caching", closed windows):
 *
 * - `indexer_cursors.confirmed_time`: the block timestamp of the highest block that is both
 *   scanned (at or below the cursor) and counted final (at or below `safe_block`); null before the
 *   first write that recorded it, and after a reorg below the final block. The API's feed
 *   watermark is the oldest of these over a network's chains (transactions/watermark.ts).
 */
import type { Knex } from 'knex';

/** Adds the column. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table indexer_cursors add column confirmed_time timestamptz`);
}

/** Drops the column. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table indexer_cursors drop column if exists confirmed_time`);
}
