/**
 * The attestation poller (docs/indexer.md "Attestation"): asks Iris about indexed transfers not
 * yet attested, one request per origin transaction. Only due records are asked (`iris_next_at`
 * passed, or never asked), the least asked first, then the longest overdue, then the newest: a
 * new transfer (a fast one is attested within seconds) is asked on the next pass and keeps its
 * turn ahead of a backlog that has been asked more often, and among equals the order is
 * round-robin, so no record waits behind older ones and none is starved. After an unattested
 * answer the record waits {@link nextCheckSeconds} (per-record backoff); an attested message marks its record `attested` and, for v2, stores the
 * `eventNonce` Iris assigned (the key of the destination's `MessageReceived`). A record still
 * unattested after the timeout gets `has_attestation_error` (cleared if the attestation comes
 * later); past the give-up age it keeps it and is asked only every give-up recheck interval.
 */
import type { Session } from '../db/statements.js';
import { IrisError, isAttested, type IrisClient } from './iris.js';
import {
  deferAttestationCheck,
  dueAttestations,
  flagOverdueAttestations,
  indexedRecordsOf,
  matchDestinations,
  recordAttestationAnswers,
  type AttestationAnswer,
} from './store.js';

/** Options of {@link pollAttestations}. */
export interface AttestationOptions {
  /** Seconds after `created_at` without attestation before `has_attestation_error`. */
  readonly timeoutSeconds: number;
  /** Seconds between the first checks of one transfer (the base of the backoff). */
  readonly recheckSeconds: number;
  /** Longest wait between two checks before the give-up age, seconds (default 120). */
  readonly maxBackoffSeconds?: number;
  /** Age (seconds after `created_at`) after which a transfer is asked only rarely (default 1 day). */
  readonly giveUpSeconds?: number;
  /** Seconds between two checks of a transfer past the give-up age (default 3600). */
  readonly giveUpRecheckSeconds?: number;
  /** Transactions asked per pass (default 20; about one second of the Iris budget is best). */
  readonly batch?: number;
  /** The origin chain whose records this pass asks about (its lock holder's); absent = all. */
  readonly chain?: { readonly network: string; readonly domain: number };
}

/** What one pass did. */
export interface AttestationPass {
  readonly asked: number;
  readonly attested: number;
  readonly errors: number;
}

/**
 * Checks at the base interval before the backoff starts doubling: about the time Circle gives
 * a fast transfer (finality threshold at most 1000: "seconds to a few minutes",
 * https://developers.circle.com/cctp/howtos/resolve-stuck-attestation).
 */
const BACKOFF_FREE_CHECKS = 6;

/**
 * Seconds until the next Iris check of a transfer that is still unattested: `recheckSeconds`
 * for the first {@link BACKOFF_FREE_CHECKS} checks, then doubling per check up to
 * `maxBackoffSeconds`; `giveUpRecheckSeconds` once the transfer is older than `giveUpSeconds`.
 *
 * @param attempts checks answered so far, this one included (>= 1).
 * @param ageSeconds seconds since the transfer's block.
 */
function nextCheckSeconds(
  attempts: number,
  ageSeconds: number,
  options: AttestationOptions,
): number {
  if (ageSeconds >= (options.giveUpSeconds ?? 86_400)) return options.giveUpRecheckSeconds ?? 3_600;
  const doublings = Math.max(0, attempts - BACKOFF_FREE_CHECKS);
  const backoff = options.recheckSeconds * 2 ** Math.min(doublings, 20);
  return Math.min(backoff, Math.max(options.maxBackoffSeconds ?? 120, options.recheckSeconds));
}

/**
 * One pass over the due unattested records (of `options.chain` when given).
 *
 * @throws database errors and the rate gate's errors; Iris errors are counted and the
 *   transaction is asked again after `recheckSeconds`; a 429 ends the pass.
 */
export async function pollAttestations(
  db: Session,
  iris: IrisClient,
  options: AttestationOptions,
): Promise<AttestationPass> {
  const due = await dueAttestations(db, options.chain, options.batch ?? 20);
  let attested = 0;
  let errors = 0;
  const attestedIds: string[] = [];
  for (const tx of due) {
    const version = tx.version === 1 ? 1 : 2;
    try {
      const messages = await iris.messages(version, Number(tx.source_domain), tx.source_tx_hash);
      const ids = await indexedRecordsOf(db, tx);
      const wait = nextCheckSeconds(Number(tx.attempts) + 1, Number(tx.age_seconds), options);
      // Iris lists a transaction's messages in log order, as the records are ordered.
      const answers: AttestationAnswer[] = ids.map((id, i) => {
        const m = messages[i];
        if (!m || !isAttested(m)) return { id, attested: false, nextCheckSeconds: wait };
        attested++;
        attestedIds.push(id);
        return {
          id,
          attested: true,
          version,
          message: m.message,
          nonce: version === 2 ? m.eventNonce.toLowerCase() : m.eventNonce,
        };
      });
      await recordAttestationAnswers(db, answers);
    } catch (error) {
      if (!(error instanceof IrisError)) throw error;
      errors++;
      if (error.kind === 'rate_limited') break;
      await deferAttestationCheck(db, tx, options.recheckSeconds);
    }
  }
  await flagOverdueAttestations(db, options.chain, options.timeoutSeconds);
  await matchDestinations(db, { kind: 'records', ids: attestedIds });
  return { asked: due.length, attested, errors };
}
