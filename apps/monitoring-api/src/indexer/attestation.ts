/**
 * The attestation poller (docs/indexer.md "Attestation"): asks Iris about indexed transfers not
 * yet attested, oldest first, each at most once per recheck interval; an attested message marks
 * its record `attested` and, for v2, stores the `eventNonce` Iris assigned (the key of the
 * destination's `MessageReceived`). A record still unattested after the timeout gets
 * `has_attestation_error` (cleared if the attestation comes later).
 */
import type { Knex } from 'knex';
import { IrisError, isAttested, type IrisClient } from './iris.js';
import { attestedColumns, matchDestinations } from './store.js';

/** Options of {@link pollAttestations}. */
export interface AttestationOptions {
  /** Seconds after `created_at` without attestation before `has_attestation_error`. */
  readonly timeoutSeconds: number;
  /** Seconds between two checks of the same transfer. */
  readonly recheckSeconds: number;
  /** Transactions asked per pass. */
  readonly batch?: number;
}

/** What one pass did. */
export interface AttestationPass {
  readonly asked: number;
  readonly attested: number;
  readonly errors: number;
}

/**
 * One pass over the unattested records.
 *
 * @throws database errors; Iris errors are counted and the transfer is asked again later.
 */
export async function pollAttestations(
  knex: Knex,
  iris: IrisClient,
  options: AttestationOptions,
): Promise<AttestationPass> {
  const due = (await knex('transactions')
    .select('source_tx_hash', 'source_domain', 'version')
    .min('created_at as first')
    .whereRaw('log_index is not null and not attested')
    .whereRaw(`(iris_checked_at is null or iris_checked_at < now() - make_interval(secs => ?))`, [
      options.recheckSeconds,
    ])
    .groupBy('source_tx_hash', 'source_domain', 'version')
    .orderBy('first')
    .limit(options.batch ?? 20)) as {
    source_tx_hash: string;
    source_domain: string;
    version: number;
  }[];
  let attested = 0;
  let errors = 0;
  const attestedIds: string[] = [];
  for (const tx of due) {
    const version = tx.version === 1 ? 1 : 2;
    const where = { source_tx_hash: tx.source_tx_hash, source_domain: tx.source_domain };
    try {
      const messages = await iris.messages(version, Number(tx.source_domain), tx.source_tx_hash);
      const rows = (await knex('transactions')
        .select('id')
        .where(where)
        .whereNotNull('log_index')
        .orderBy('log_index')) as { id: string }[];
      // Iris lists a transaction's messages in log order, as the records are ordered.
      await knex.transaction(async (trx) => {
        for (const [i, row] of rows.entries()) {
          const m = messages[i];
          if (m && isAttested(m)) {
            attested++;
            attestedIds.push(row.id);
            await trx('transactions')
              .where({ id: row.id })
              .update({
                attested: true,
                has_attestation_error: false,
                iris_checked_at: trx.fn.now(),
                ...attestedColumns(trx, version, m.message),
                ...(version === 2 ? { cctp_nonce: m.eventNonce.toLowerCase() } : {}),
              });
          } else {
            await trx('transactions')
              .where({ id: row.id })
              .update({ iris_checked_at: trx.fn.now() });
          }
        }
      });
    } catch (error) {
      if (!(error instanceof IrisError)) throw error;
      errors++;
      if (/rate limited/.test(error.message)) break;
    }
  }
  await knex('transactions')
    .whereRaw('log_index is not null and not attested and not has_attestation_error')
    .where(
      'created_at',
      '<',
      knex.raw(`now() - make_interval(secs => ?)`, [options.timeoutSeconds]),
    )
    .update({ has_attestation_error: true });
  await matchDestinations(knex, { kind: 'records', ids: attestedIds });
  return { asked: due.length, attested, errors };
}
