/**
 * The change log behind the live feed (docs/api.md "Live feed (Server-Sent Events)";
 * docs/decisions.md "D141. Change log numbered in commit order"):
 *
 * - `transaction_changes`: one row per insert, update (of a field of the record) or delete of a
 *   `transactions` row, numbered by `seq` in COMMIT order, so a reader that has seen `seq` n has
 *   seen every change below n (the `Last-Event-ID` of the stream). A delete keeps the fields the
 *   stream filters on in `removed`, since the row is gone.
 * - Constraint triggers deferred to commit write it: at commit each takes one transaction-scoped
 *   advisory lock (held for the few microseconds until the commit completes; taken after every
 *   row lock of the transaction, so it adds no lock cycle), draws `seq`, and sends
 *   `NOTIFY transaction_changes, '<seq> <id> <kind>'` (well under the 8000-byte payload limit).
 *   A trigger catches every writer: the indexer, the seed, an operator's SQL.
 * - Retention: every 1000th change deletes those more than {@link CHANGE_LOG_RETENTION} older.
 *
 * Runs on PostgreSQL 15 and on PGlite.
 */
import type { Knex } from 'knex';

/** Changes kept in the log (a `Last-Event-ID` older than that gets a `reset` event). */
export const CHANGE_LOG_RETENTION = 100_000;

/** The NOTIFY channel of the change log. */
export const CHANGE_CHANNEL = 'transaction_changes';

/** The advisory lock key that orders the commits writing the change log ("ctss chg" as ASCII). */
export const CHANGE_LOCK_KEY = '7165056283914840679';

/** The record fields whose change is an `update` event (record.ts; the Iris backoff columns are not). */
const RECORD_COLUMNS = [
  'source_tx_hash',
  'destination_tx_hash',
  'gas_drop_tx_hash',
  'source_domain',
  'destination_domain',
  'sender',
  'recipient',
  'deposit_amount',
  'receive_amount',
  'relayer_fee',
  'gas_drop_amount',
  'is_gas_drop_in_native',
  'max_fee',
  'version',
  'confirmed',
  'has_source_tx_error',
  'has_attestation_error',
  'has_destination_tx_error',
  'destination_tx_status',
  'created_at',
  'attested_at',
  'received_at',
  'updated_at',
  'message_hash',
  'cctp_nonce',
  'fee_executed',
  'min_finality_threshold',
] as const;

const tuple = (alias: 'old' | 'new') =>
  `(${RECORD_COLUMNS.map((c) => `${alias}.${c}`).join(', ')})`;

/** Creates the log, its sequence, the trigger function and the triggers. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create sequence transaction_changes_seq;
    create table transaction_changes (
      seq bigint primary key,
      transaction_id bigint not null,
      kind text not null check (kind in ('insert', 'update', 'delete')),
      removed jsonb,
      changed_at timestamptz not null default now()
    );
    create function transaction_changes_log() returns trigger language plpgsql as $$
    declare
      next_seq bigint;
      row_id bigint;
      change text := lower(tg_op);
    begin
      perform pg_advisory_xact_lock(${CHANGE_LOCK_KEY});
      next_seq := nextval('transaction_changes_seq');
      if tg_op = 'DELETE' then
        row_id := old.id;
        insert into transaction_changes (seq, transaction_id, kind, removed)
        values (next_seq, row_id, change, jsonb_build_object(
          'id', old.id, 'network', old.network, 'source_tx_hash', old.source_tx_hash,
          'destination_tx_hash', old.destination_tx_hash, 'sender', old.sender,
          'recipient', old.recipient, 'source_domain', old.source_domain,
          'destination_domain', old.destination_domain,
          'destination_tx_status', old.destination_tx_status));
      else
        row_id := new.id;
        insert into transaction_changes (seq, transaction_id, kind) values (next_seq, row_id, change);
      end if;
      if next_seq % 1000 = 0 then
        delete from transaction_changes where seq <= next_seq - ${CHANGE_LOG_RETENTION};
      end if;
      perform pg_notify('${CHANGE_CHANNEL}', next_seq || ' ' || row_id || ' ' || change);
      return null;
    end $$;
    create constraint trigger transactions_change_log_insert_delete
      after insert or delete on transactions
      deferrable initially deferred
      for each row execute function transaction_changes_log();
    create constraint trigger transactions_change_log_update
      after update on transactions
      deferrable initially deferred
      for each row when (${tuple('old')} is distinct from ${tuple('new')})
      execute function transaction_changes_log();
  `);
}

/** Drops the triggers, the function, the log and its sequence. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger transactions_change_log_update on transactions;
    drop trigger transactions_change_log_insert_delete on transactions;
    drop function transaction_changes_log();
    drop table transaction_changes;
    drop sequence transaction_changes_seq;
  `);
}
