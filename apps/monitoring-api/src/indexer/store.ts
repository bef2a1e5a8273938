/**
 * The indexer's statements (docs/indexer.md "Writes, cursor and reorgs"), plain SQL text with
 * `$n` placeholders run on the database layer (db/database.ts; docs/architecture.md "Database
 * layer"): every batch of records, destination receipts and the chain's cursor in ONE
 * transaction, idempotent on the origin log key, guarded by a compare-and-set of the cursor so a
 * writer that lost its lock cannot move a cursor another writer has moved. Rollups follow through
 * the table's triggers. Rows go in as one JSON array per statement, expanded by
 * `jsonb_populate_recordset` against the table's own row type (docs/decisions.md "D250. The
 * indexer, the rank job and the seed on the database layer"). The statements are written to
 * src/queries/indexer.sql by test/queries.int.test.ts.
 */
import { keccak256, type Hex } from 'viem';
import { insertRecordset, recordsetInsertSql } from '../db/recordset-insert.js';
import type { Queryable, Session } from '../db/statements.js';
import { moveCursor, type ChainKey, type Cursor } from './cursor.js';
import type { TransferRow } from './decode.js';

/** A `MessageReceived` seen on an indexed chain (the destination of some transfer). */
export interface ReceivedRow {
  network: 'mainnet' | 'testnet';
  destination_domain: number;
  source_domain: number;
  version: 1 | 2;
  /** v1: decimal uint64; v2: bytes32 0x hex (lower case). */
  nonce: string;
  tx_hash: string;
  log_index: number;
  block_number: bigint;
  block_hash: string;
  /** Amount minted to the recipient (`MintAndWithdraw.amount`), base units; null if not seen. */
  mint_amount: bigint | null;
  /** v2: Circle's fee executed (`MintAndWithdraw.feeCollected`), base units; null for v1 or unseen. */
  fee_executed: bigint | null;
  /** The destination block's timestamp. */
  received_at: Date;
}

/** Which records or receipts a destination match looks at (a scope keeps it to a few rows). */
export type MatchScope =
  | {
      readonly kind: 'receipts';
      readonly network: string;
      readonly domain: number;
      readonly txHashes: readonly string[];
    }
  | { readonly kind: 'records'; readonly ids: readonly string[] };

/** The destination columns a matched receipt sets (the update of {@link matchDestinations}). */
const MATCH_SQL = `update transactions t
    set destination_tx_hash = r.tx_hash,
        receive_amount = coalesce(r.mint_amount, t.receive_amount),
        destination_tx_status = 'success',
        fee_executed = coalesce(r.fee_executed, t.fee_executed),
        received_at = r.received_at,
        attested_at = coalesce(t.attested_at, r.received_at)
   from cctp_received r
  where t.log_index is not null and t.destination_tx_hash is null and t.cctp_nonce is not null
    and r.network = t.network and r.destination_domain = t.destination_domain
    and r.source_domain = t.source_domain and r.version = t.version and r.nonce = t.cctp_nonce`;

/**
 * Sets destination fields from the receipts seen so far: a record whose (destination domain,
 * source domain, version, nonce) has a `MessageReceived` becomes `success` with that tx hash, the
 * minted amount (`receive_amount`), v2's `fee_executed`, and `received_at` = the receive's block
 * time; `attested_at` becomes that time too if no attestation was seen before (a message is
 * attested before it can be received). Only the scoped receipts or records are looked at.
 *
 * @returns the number of records completed.
 * @throws database errors.
 */
export async function matchDestinations(db: Queryable, scope: MatchScope): Promise<number> {
  if (scope.kind === 'receipts') {
    if (scope.txHashes.length === 0) return 0;
    const result = await db.execute(
      `${MATCH_SQL}
    and r.network = $1 and r.destination_domain = $2 and r.tx_hash = any($3::text[])`,
      [scope.network, scope.domain, [...scope.txHashes]],
    );
    return result.rowCount;
  }
  if (scope.ids.length === 0) return 0;
  const result = await db.execute(
    `${MATCH_SQL}
    and t.id = any($1::bigint[])`,
    [[...scope.ids]],
  );
  return result.rowCount;
}

/** Whether `message` is 0x hex (only then is its keccak-256 a message hash). */
const isHex = (message: string): message is Hex => /^0x[0-9a-fA-F]*$/.test(message);

/** An origin transaction due for an Iris check (docs/indexer.md "Attestation"). */
export interface DueTransaction {
  readonly network: string;
  readonly source_tx_hash: string;
  readonly source_domain: string;
  readonly version: number;
  /** Checks answered so far (the most of its records). */
  readonly attempts: number;
  /** Seconds since its oldest record's block, decimal text. */
  readonly age_seconds: string;
}

/** A chain's network and domain, or (`$1` null) every chain: the filter of the attestation pass. */
type ChainFilter = { readonly network: string; readonly domain: number } | undefined;

/** The `$1`, `$2` values of a `($1::text is null or (network = $1 and source_domain = $2))` filter. */
const chainValues = (chain: ChainFilter): [string | null, number | null] =>
  chain ? [chain.network, chain.domain] : [null, null];

/**
 * Up to `batch` origin transactions with indexed, unattested records whose next check is due
 * (`iris_next_at` passed or never asked), of `chain` when given: the least asked first, then the
 * longest overdue, then the newest.
 *
 * @throws database errors.
 */
export async function dueAttestations(
  db: Queryable,
  chain: ChainFilter,
  batch: number,
): Promise<DueTransaction[]> {
  return db.rows<DueTransaction>(
    `select network, source_tx_hash, source_domain, version, max(iris_attempts) as attempts,
            extract(epoch from now() - min(created_at))::text as age_seconds
       from transactions
      where log_index is not null and not attested
        and (iris_next_at is null or iris_next_at <= now())
        and ($1::text is null or (network = $1 and source_domain = $2))
      group by network, source_tx_hash, source_domain, version
      order by min(iris_attempts), min(iris_next_at) nulls first, min(created_at) desc
      limit $3`,
    [...chainValues(chain), batch],
  );
}

/** The `$1`..`$3` values of an origin transaction's records. */
const originValues = (tx: DueTransaction) => [tx.network, tx.source_tx_hash, tx.source_domain];

/**
 * The ids of `tx`'s indexed records, in log order (the order Iris lists its messages in).
 *
 * @throws database errors.
 */
export async function indexedRecordsOf(db: Queryable, tx: DueTransaction): Promise<string[]> {
  const rows = await db.rows<{ id: string }>(
    `select id from transactions
      where network = $1 and source_tx_hash = $2 and source_domain = $3 and log_index is not null
      order by log_index`,
    originValues(tx),
  );
  return rows.map((row) => row.id);
}

/** Iris's answer for one record: attested (with its message) or asked again later. */
export type AttestationAnswer =
  | {
      readonly id: string;
      readonly attested: true;
      readonly version: 1 | 2;
      /** The attested message, 0x hex. */
      readonly message: string;
      /**
       * The `eventNonce` Iris read from the message: v2, the nonce Iris assigned (lower-case hex),
       * always written; v1, the decimal nonce, written only where the origin left it empty (a
       * Solana record whose `MessageSent` account was closed before it was read; docs/indexer.md
       * "Solana"), with the message's keccak-256 as its `message_hash` likewise.
       */
      readonly nonce: string;
    }
  | { readonly id: string; readonly attested: false; readonly nextCheckSeconds: number };

/**
 * An attested record (docs/indexer.md "Record fields"): the check counted, the attestation error
 * cleared, `attested_at` = now unless already set; v2 (`$2` = 2): `message_hash` = keccak-256 of
 * the attested message (`$3`; Iris's `message`, with the nonce it assigned; kept when the message
 * is not hex) and the nonce (`$4`); v1: both only where the origin left them empty (v1's hash is
 * known from `MessageSent`).
 */
const ATTESTED_SQL = `update transactions
    set attested = true, has_attestation_error = false,
        iris_checked_at = now(), iris_attempts = iris_attempts + 1, iris_next_at = null,
        attested_at = coalesce(attested_at, now()),
        message_hash = case when $2::int = 2 then coalesce($3::text, message_hash)
                            else coalesce(message_hash, $3::text) end,
        cctp_nonce = case when $2::int = 2 then $4::text else coalesce(cctp_nonce, $4::text) end
  where id = $1`;

/**
 * Records one transaction's answers in one database transaction: an attested record is marked
 * ({@link ATTESTED_SQL}), any other is asked again after its `nextCheckSeconds`; both count the
 * check.
 *
 * @throws database errors (nothing is written then).
 */
export async function recordAttestationAnswers(
  db: Session,
  answers: readonly AttestationAnswer[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const answer of answers) {
      if (answer.attested) {
        await tx.execute(ATTESTED_SQL, [
          answer.id,
          answer.version,
          isHex(answer.message) ? keccak256(answer.message) : null,
          answer.nonce,
        ]);
      } else {
        await tx.execute(
          `update transactions
              set iris_checked_at = now(), iris_attempts = iris_attempts + 1,
                  iris_next_at = now() + make_interval(secs => $2)
            where id = $1`,
          [answer.id, answer.nextCheckSeconds],
        );
      }
    }
  });
}

/**
 * Asks `tx`'s unattested records again `seconds` from now (Iris failed to answer).
 *
 * @throws database errors.
 */
export async function deferAttestationCheck(
  db: Queryable,
  tx: DueTransaction,
  seconds: number,
): Promise<void> {
  await db.execute(
    `update transactions set iris_next_at = now() + make_interval(secs => $4)
      where network = $1 and source_tx_hash = $2 and source_domain = $3
        and log_index is not null and not attested`,
    [...originValues(tx), seconds],
  );
}

/**
 * Sets `has_attestation_error` on the unattested records (of `chain` when given) older than
 * `timeoutSeconds`.
 *
 * @throws database errors.
 */
export async function flagOverdueAttestations(
  db: Queryable,
  chain: ChainFilter,
  timeoutSeconds: number,
): Promise<void> {
  await db.execute(
    `update transactions set has_attestation_error = true
      where ($1::text is null or (network = $1 and source_domain = $2))
        and log_index is not null and not attested and not has_attestation_error
        and created_at < now() - make_interval(secs => $3)`,
    [...chainValues(chain), timeoutSeconds],
  );
}

/** What one scanned range writes. */
export interface Batch {
  readonly chain: ChainKey;
  /** The cursor read before scanning (undefined: first batch). */
  readonly expected: Cursor | undefined;
  /** The last block of the range and its hash. */
  readonly next: Cursor;
  readonly transfers: readonly TransferRow[];
  readonly received: readonly ReceivedRow[];
  /** Highest block number counted final (rows at or below it become `confirmed`). */
  readonly safeBlock: bigint;
  /** Timestamp of block min(`next`, `safeBlock`), when known (the feed watermark). */
  readonly confirmedTime?: Date;
}

/**
 * Rows per INSERT statement: a dense step of more rows goes in several statements, so no one
 * statement (and its JSON parameter) grows without bound.
 */
const INSERT_CHUNK_ROWS = 1_000;

/** The columns of a transfer record the indexer writes (every key of {@link TransferRow}). */
const TRANSFER_COLUMNS = [
  'network',
  'source_domain',
  'source_tx_hash',
  'destination_domain',
  'sender',
  'recipient',
  'deposit_amount',
  'receive_amount',
  'relayer_fee',
  'gas_drop_amount',
  'is_gas_drop_in_native',
  'max_fee',
  'confirmed',
  'created_at',
  'log_index',
  'block_number',
  'block_hash',
  'version',
  'cctp_nonce',
  'message_hash',
  'min_finality_threshold',
] as const satisfies readonly (keyof TransferRow)[];

/** The columns of a receipt (every key of {@link ReceivedRow}). */
const RECEIVED_COLUMNS = [
  'network',
  'destination_domain',
  'source_domain',
  'version',
  'nonce',
  'tx_hash',
  'log_index',
  'block_number',
  'block_hash',
  'mint_amount',
  'fee_executed',
  'received_at',
] as const satisfies readonly (keyof ReceivedRow)[];

/**
 * Inserts the records of `$1` (a JSON array of {@link TRANSFER_COLUMNS} objects); a log already
 * stored keeps its row and takes the new block fields (a log re-included in another block).
 * Returns each row's id and whether it was inserted.
 */
const INSERT_TRANSFERS_SQL = recordsetInsertSql(
  'transactions',
  TRANSFER_COLUMNS,
  `on conflict (network, source_domain, source_tx_hash, log_index) do update
     set block_number = excluded.block_number, block_hash = excluded.block_hash,
         created_at = excluded.created_at, confirmed = excluded.confirmed
   where (transactions.block_hash, transactions.created_at, transactions.confirmed)
         is distinct from (excluded.block_hash, excluded.created_at, excluded.confirmed)
  returning id::text, (xmax = 0) as inserted`,
);

/** Inserts the receipts of `$1` (a JSON array); a receipt already stored takes the new fields. */
const INSERT_RECEIVED_SQL = recordsetInsertSql(
  'cctp_received',
  RECEIVED_COLUMNS,
  `on conflict (network, destination_domain, tx_hash, log_index) do update
     set block_number = excluded.block_number, block_hash = excluded.block_hash,
         mint_amount = excluded.mint_amount, fee_executed = excluded.fee_executed,
         received_at = excluded.received_at`,
);

/**
 * Writes a batch and moves the cursor in one transaction. Re-writing the same logs changes
 * nothing but their block fields (a log re-included in another block keeps its row).
 *
 * @returns the number of transfer rows inserted (not counting rows already present).
 * @throws {CursorMovedError} when the stored cursor is not `batch.expected` (nothing is written).
 */
export async function writeBatch(db: Session, batch: Batch): Promise<number> {
  return db.transaction(async (tx) => {
    await moveCursor(
      tx,
      batch.chain,
      batch.expected,
      batch.next,
      batch.safeBlock,
      batch.confirmedTime,
    );
    const { returned } = await insertRecordset<{ id: string; inserted: boolean }>(
      tx,
      INSERT_TRANSFERS_SQL,
      batch.transfers,
      INSERT_CHUNK_ROWS,
    );
    const inserted = returned.filter((r) => r.inserted).length;
    const ids = returned.map((r) => r.id);
    await insertRecordset(tx, INSERT_RECEIVED_SQL, batch.received, INSERT_CHUNK_ROWS);
    await tx.execute(
      `update transactions set confirmed = true
        where network = $1 and source_domain = $2 and log_index is not null and not confirmed
          and block_number <= $3`,
      [batch.chain.network, batch.chain.domain, batch.safeBlock.toString()],
    );
    await matchDestinations(tx, { kind: 'records', ids });
    await matchDestinations(tx, {
      kind: 'receipts',
      network: batch.chain.network,
      domain: batch.chain.domain,
      txHashes: batch.received.map((r) => r.tx_hash),
    });
    return inserted;
  });
}

/**
 * Block numbers (above `above`) of this chain's rows and receipts with their stored hashes,
 * for checking against the chain after a reorg.
 *
 * @throws database errors.
 */
export async function storedBlocksAbove(
  db: Queryable,
  chain: ChainKey,
  above: bigint,
): Promise<Map<bigint, Set<string>>> {
  const rows = await db.rows<{ block_number: string; block_hash: string }>(
    `select distinct block_number, block_hash from transactions
      where network = $1 and source_domain = $2 and log_index is not null and block_number > $3
     union
     select distinct block_number, block_hash from cctp_received
      where network = $1 and destination_domain = $2 and block_number > $3`,
    [chain.network, chain.domain, above.toString()],
  );
  const blocks = new Map<bigint, Set<string>>();
  for (const row of rows) {
    const n = BigInt(row.block_number);
    const set = blocks.get(n) ?? new Set<string>();
    set.add(row.block_hash);
    blocks.set(n, set);
  }
  return blocks;
}

/**
 * Undoes a reorg in one transaction: deletes this chain's records and receipts above `to`
 * whose block hash is not the canonical one (`canonical`: block number -> hash, absent = the
 * block no longer exists), returns records whose destination receipt was deleted to pending,
 * and sets the cursor back to `to` (undefined: before the first block).
 *
 * @returns the number of records deleted.
 * @throws {CursorMovedError} when the stored cursor is not `expected`.
 */
export async function rewind(
  db: Session,
  chain: ChainKey,
  expected: Cursor,
  to: Cursor | undefined,
  canonical: ReadonlyMap<bigint, string>,
): Promise<number> {
  return db.transaction(async (tx) => {
    await moveCursor(tx, chain, expected, to);
    const floor = (to?.number ?? -1n).toString();
    const keep = [...canonical].map(([n, h]) => `${n.toString()}:${h}`);
    const values = [chain.network, chain.domain, floor, keep];
    const dropped = await tx.rows<{ tx_hash: string }>(
      `delete from cctp_received
        where network = $1 and destination_domain = $2 and block_number > $3
          and not (block_number::text || ':' || block_hash = any($4::text[]))
        returning tx_hash`,
      values,
    );
    if (dropped.length > 0) {
      // The record loses its destination fields: pending again, the amount before any mint.
      await tx.execute(
        `update transactions
            set destination_tx_hash = null, destination_tx_status = 'pending',
                receive_amount = deposit_amount - relayer_fee,
                received_at = null, fee_executed = null
          where network = $1 and destination_domain = $2 and destination_tx_hash = any($3::text[])`,
        [chain.network, chain.domain, dropped.map((d) => d.tx_hash)],
      );
    }
    const deleted = await tx.execute(
      `delete from transactions
        where network = $1 and source_domain = $2 and block_number > $3
          and not (block_number::text || ':' || block_hash = any($4::text[]))
          and log_index is not null`,
      values,
    );
    return deleted.rowCount;
  });
}

/**
 * Deletes a chain's unconfirmed records at or below `height` whose origin transaction is not in
 * `keep` (a source whose finality is a commitment level, not a depth: a transaction seen at
 * `confirmed` that is not final once its slot is, was rolled back; docs/indexer.md "Solana").
 * The rollups follow through the delete trigger.
 *
 * @returns the number of records deleted.
 * @throws database errors.
 */
export async function deleteUnfinalized(
  db: Queryable,
  chain: ChainKey,
  height: bigint,
  keep: readonly string[],
): Promise<number> {
  const result = await db.execute(
    `delete from transactions
      where network = $1 and source_domain = $2 and not confirmed and log_index is not null
        and block_number <= $3 and not (source_tx_hash = any($4::text[]))`,
    [chain.network, chain.domain, height.toString(), [...keep]],
  );
  return result.rowCount;
}

/** A record bound for an indexed chain that has not been received there yet. */
export interface AwaitedReceive {
  readonly id: string;
  readonly source_domain: number;
  readonly version: 1 | 2;
  /** v1: decimal uint64; v2: bytes32 0x hex. */
  readonly cctp_nonce: string;
}

/**
 * Records into `chain` (its network and domain as destination) with a known CCTP nonce and no
 * destination transaction yet, newest first: what a source that looks receives up by message
 * (docs/indexer.md "Solana") asks about.
 *
 * @throws database errors.
 */
export async function awaitedReceives(
  db: Queryable,
  chain: ChainKey,
  limit: number,
): Promise<AwaitedReceive[]> {
  const rows = await db.rows<{
    id: string;
    source_domain: string;
    version: number;
    cctp_nonce: string;
  }>(
    `select id::text as id, source_domain, version, cctp_nonce from transactions
      where network = $1 and destination_domain = $2 and log_index is not null
        and destination_tx_hash is null and cctp_nonce is not null
      order by created_at desc
      limit $3`,
    [chain.network, chain.domain, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    source_domain: Number(r.source_domain),
    version: r.version === 1 ? 1 : 2,
    cctp_nonce: r.cctp_nonce,
  }));
}
