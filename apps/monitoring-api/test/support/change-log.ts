/**
 * A change lost to the change log's retention (docs/decisions.md "D330. Changes lost to the change
 * log's retention"), made in one commit without writing 100,000 changes.
 */
import type { Knex } from 'knex';

/** A record by its `source_tx_hash` and the columns of its update. */
interface RecordUpdate {
  readonly sourceTxHash: string;
  readonly set: Record<string, unknown>;
}

/**
 * Commits `lost`'s update, the retention's deletion of the log's oldest positions (that change
 * among them) before any reader saw it, and then `later`'s update, whose position the live feeds
 * read next. The log is written by triggers deferred to the commit; `set constraints all
 * immediate` writes the first change's position before the deletion.
 */
export async function commitWithLostChange(
  knex: Knex,
  lost: RecordUpdate,
  later: RecordUpdate,
): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('transactions').where({ source_tx_hash: lost.sourceTxHash }).update(lost.set);
    await trx.raw('set constraints all immediate');
    await trx.raw('delete from transaction_changes');
    await trx('transactions').where({ source_tx_hash: later.sourceTxHash }).update(later.set);
  });
}
