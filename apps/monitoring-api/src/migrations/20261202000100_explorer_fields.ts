/**
 * The explorer fields of a transfer (docs/api.md "Transaction record", docs/indexer.md "Record
 * fields"), added without changing what the existing readers select:
 *
 * - `transactions`: `attested_at` (when the indexer first saw the attestation, or the receive's
 *   block time if that came first), `received_at` (the destination block's time), `updated_at`
 *   (the last change of a field the API shows; a row trigger keeps it), `message_hash`
 *   (keccak-256 of the CCTP message: v1 as sent, v2 as attested), `fee_executed` (v2: Circle's
 *   fee from the destination `MintAndWithdraw.feeCollected`) and `min_finality_threshold` (v2:
 *   `DepositForBurn.minFinalityThreshold`). Existing rows get `updated_at` = the migration's time
 *   (a constant default: no table rewrite, no rollup trigger run) and NULL for the rest.
 * - `cctp_received`: the receive's block time and the fee collected by its mint.
 * - an index for the lookup by destination hash (docs/api.md "Transaction by hash (either leg)"): the
 *   existing `(network, destination_tx_hash)` index serves it.
 *
 * The `updated_at` trigger compares the row without the columns the API does not show
 * (`iris_checked_at`, `attested`, `block_number`, `block_hash`, `updated_at`), so a poll that only
 * notes it asked Iris, or a re-scan that moves a log's block, leaves it unchanged.
 * Runs on PostgreSQL 15 and on PGlite (PostgreSQL 17/18).
 */
import type { Knex } from 'knex';

/** Adds the columns and the trigger. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table transactions
      add column attested_at timestamptz,
      add column received_at timestamptz(0),
      add column updated_at timestamptz not null default now(),
      add column message_hash text check (message_hash ~ '^0x[0-9a-f]{64}$'),
      add column fee_executed bigint check (fee_executed >= 0),
      add column min_finality_threshold integer check (min_finality_threshold >= 0);

    alter table cctp_received
      add column received_at timestamptz(0),
      add column fee_executed bigint check (fee_executed >= 0);

    create function ctss_transactions_touch() returns trigger language plpgsql as $fn$
    begin
      if (to_jsonb(new) - 'iris_checked_at' - 'attested' - 'block_number' - 'block_hash' - 'updated_at')
         is distinct from
         (to_jsonb(old) - 'iris_checked_at' - 'attested' - 'block_number' - 'block_hash' - 'updated_at') then
        new.updated_at := now();
      else
        new.updated_at := old.updated_at;
      end if;
      return new;
    end
    $fn$;

    create trigger transactions_touch before update on transactions
      for each row execute function ctss_transactions_touch();
  `);
}

/** Drops what `up` added. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists transactions_touch on transactions;
    drop function if exists ctss_transactions_touch();
    alter table cctp_received
      drop column if exists fee_executed,
      drop column if exists received_at;
    alter table transactions
      drop column if exists min_finality_threshold,
      drop column if exists fee_executed,
      drop column if exists message_hash,
      drop column if exists updated_at,
      drop column if exists received_at,
      drop column if exists attested_at;
  `);
}
