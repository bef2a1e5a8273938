/**
 * The indexer's writes (docs/indexer.md "Writes, cursor and reorgs"): every batch of records,
 * destination receipts and the chain's cursor in ONE transaction, idempotent on the origin log
 * key, guarded by a compare-and-set of the cursor so a writer that lost its lock cannot move a
 * cursor another writer has moved. Rollups follow through the table's triggers.
 */
import type { Knex } from 'knex';
import { moveCursor, type ChainKey, type Cursor } from './cursor.js';
import { keccak256, type Hex } from 'viem';
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

/**
 * Sets destination fields from the receipts seen so far: a record whose (destination domain,
 * source domain, version, nonce) has a `MessageReceived` becomes `success` with that tx hash, the
 * minted amount (`receive_amount`), v2's `fee_executed`, and `received_at` = the receive's block
 * time; `attested_at` becomes that time too if no attestation was seen before (a message is
 * attested before it can be received). Only the scoped receipts or records are looked at.
 *
 * @returns the number of records completed.
 */
export async function matchDestinations(
  knex: Knex | Knex.Transaction,
  scope: MatchScope,
): Promise<number> {
  const [filter, bindings]: [string, Knex.RawBinding[]] =
    scope.kind === 'receipts'
      ? [
          'r.network = ? and r.destination_domain = ? and r.tx_hash = any(?::text[])',
          [scope.network, scope.domain, [...scope.txHashes]],
        ]
      : ['t.id = any(?::bigint[])', [[...scope.ids]]];
  if ((scope.kind === 'receipts' ? scope.txHashes : scope.ids).length === 0) return 0;
  const result = await knex.raw<{ rowCount: number }>(
    `update transactions t
        set destination_tx_hash = r.tx_hash,
            receive_amount = coalesce(r.mint_amount, t.receive_amount),
            destination_tx_status = 'success',
            fee_executed = coalesce(r.fee_executed, t.fee_executed),
            received_at = r.received_at,
            attested_at = coalesce(t.attested_at, r.received_at)
       from cctp_received r
      where t.log_index is not null and t.destination_tx_hash is null and t.cctp_nonce is not null
        and r.network = t.network and r.destination_domain = t.destination_domain
        and r.source_domain = t.source_domain and r.version = t.version and r.nonce = t.cctp_nonce
        and ${filter}`,
    bindings,
  );
  return result.rowCount;
}

/** The destination fields a record loses when its receipt is undone (a reorg). */
const UNRECEIVED = { received_at: null, fee_executed: null } as const;

/**
 * The columns an attestation sets on a record (docs/indexer.md "Record fields"): `attested_at`
 * = now unless already set, and for v2 `message_hash` = keccak-256 of the attested message
 * (Iris's `message`, with the nonce it assigned; v1's hash is known from `MessageSent`).
 *
 * @param message the attested message, 0x hex.
 */
function attestedColumns(
  knex: Knex | Knex.Transaction,
  version: 1 | 2,
  message: string,
): Record<string, unknown> {
  return {
    attested_at: knex.raw('coalesce(attested_at, now())'),
    ...(version === 2 && /^0x[0-9a-fA-F]*$/.test(message)
      ? { message_hash: keccak256(message as Hex) }
      : {}),
  };
}

/** The v1 columns an attestation fills where the origin did not: the nonce, the message hash. */
function v1FromIris(
  trx: Knex.Transaction,
  message: string,
  eventNonce: string,
): Record<string, unknown> {
  return {
    cctp_nonce: trx.raw('coalesce(cctp_nonce, ?)', [eventNonce]),
    ...(/^0x[0-9a-fA-F]*$/.test(message)
      ? { message_hash: trx.raw('coalesce(message_hash, ?)', [keccak256(message as Hex)]) }
      : {}),
  };
}

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

/** Restricts `query` to the records of `chain` (absent = every chain). */
function ofChain<Q extends Knex.QueryBuilder>(
  query: Q,
  chain: { readonly network: string; readonly domain: number } | undefined,
): Q {
  return chain
    ? (query.where({ network: chain.network, source_domain: chain.domain }) as Q)
    : query;
}

/**
 * Up to `batch` origin transactions with indexed, unattested records whose next check is due
 * (`iris_next_at` passed or never asked), of `chain` when given: the least asked first, then the
 * longest overdue, then the newest.
 *
 * @throws database errors.
 */
export async function dueAttestations(
  knex: Knex,
  chain: { readonly network: string; readonly domain: number } | undefined,
  batch: number,
): Promise<DueTransaction[]> {
  return (await ofChain(
    knex('transactions')
      .select('network', 'source_tx_hash', 'source_domain', 'version')
      .max('iris_attempts as attempts')
      .select(knex.raw(`extract(epoch from now() - min(created_at))::text as age_seconds`))
      .whereRaw('log_index is not null and not attested')
      .whereRaw('(iris_next_at is null or iris_next_at <= now())'),
    chain,
  )
    .groupBy('network', 'source_tx_hash', 'source_domain', 'version')
    .orderByRaw('min(iris_attempts), min(iris_next_at) nulls first, min(created_at) desc')
    .limit(batch)) as DueTransaction[];
}

/** The key of an origin transaction's records. */
function originOf(tx: DueTransaction) {
  return {
    network: tx.network,
    source_tx_hash: tx.source_tx_hash,
    source_domain: tx.source_domain,
  };
}

/**
 * The ids of `tx`'s indexed records, in log order (the order Iris lists its messages in).
 *
 * @throws database errors.
 */
export async function indexedRecordsOf(knex: Knex, tx: DueTransaction): Promise<string[]> {
  const rows = (await knex('transactions')
    .select('id')
    .where(originOf(tx))
    .whereNotNull('log_index')
    .orderBy('log_index')) as { id: string }[];
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
 * Records one transaction's answers in one database transaction: an attested record is marked
 * (attestation error cleared, `attestedColumns`, the v2 nonce), any other is asked again after
 * its `nextCheckSeconds`; both count the check.
 *
 * @throws database errors (nothing is written then).
 */
export async function recordAttestationAnswers(
  knex: Knex,
  answers: readonly AttestationAnswer[],
): Promise<void> {
  await knex.transaction(async (trx) => {
    for (const answer of answers) {
      const checked = {
        iris_checked_at: trx.fn.now(),
        iris_attempts: trx.raw('iris_attempts + 1'),
      };
      if (answer.attested) {
        await trx('transactions')
          .where({ id: answer.id })
          .update({
            attested: true,
            has_attestation_error: false,
            ...checked,
            iris_next_at: null,
            ...attestedColumns(trx, answer.version, answer.message),
            ...(answer.version === 2
              ? { cctp_nonce: answer.nonce }
              : v1FromIris(trx, answer.message, answer.nonce)),
          });
      } else {
        await trx('transactions')
          .where({ id: answer.id })
          .update({
            ...checked,
            iris_next_at: trx.raw(`now() + make_interval(secs => ?)`, [answer.nextCheckSeconds]),
          });
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
  knex: Knex,
  tx: DueTransaction,
  seconds: number,
): Promise<void> {
  await knex('transactions')
    .where(originOf(tx))
    .whereRaw('log_index is not null and not attested')
    .update({ iris_next_at: knex.raw(`now() + make_interval(secs => ?)`, [seconds]) });
}

/**
 * Sets `has_attestation_error` on the unattested records (of `chain` when given) older than
 * `timeoutSeconds`.
 *
 * @throws database errors.
 */
export async function flagOverdueAttestations(
  knex: Knex,
  chain: { readonly network: string; readonly domain: number } | undefined,
  timeoutSeconds: number,
): Promise<void> {
  await ofChain(knex('transactions'), chain)
    .whereRaw('log_index is not null and not attested and not has_attestation_error')
    .where('created_at', '<', knex.raw(`now() - make_interval(secs => ?)`, [timeoutSeconds]))
    .update({ has_attestation_error: true });
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
 * Rows per INSERT statement: a statement carries at most 65,535 bind parameters (PostgreSQL's
 * wire protocol) and a record has about 20 columns, so a dense step of more rows goes in chunks.
 */
const INSERT_CHUNK_ROWS = 1_000;

/**
 * Writes a batch and moves the cursor in one transaction. Re-writing the same logs changes
 * nothing but their block fields (a log re-included in another block keeps its row).
 *
 * @returns the number of transfer rows inserted (not counting rows already present).
 * @throws {CursorMovedError} when the stored cursor is not `batch.expected` (nothing is written).
 */
export async function writeBatch(knex: Knex, batch: Batch): Promise<number> {
  return knex.transaction(async (trx) => {
    await moveCursor(
      trx,
      batch.chain,
      batch.expected,
      batch.next,
      batch.safeBlock,
      batch.confirmedTime,
    );
    let inserted = 0;
    const ids: string[] = [];
    if (batch.transfers.length > 0) {
      const rows = batch.transfers.map((r) => ({
        ...r,
        block_number: r.block_number.toString(),
        deposit_amount: r.deposit_amount.toString(),
        receive_amount: r.receive_amount.toString(),
        relayer_fee: r.relayer_fee.toString(),
        gas_drop_amount: r.gas_drop_amount.toString(),
        max_fee: r.max_fee.toString(),
      }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK_ROWS) {
        const insert = trx('transactions')
          .insert(rows.slice(i, i + INSERT_CHUNK_ROWS))
          .toSQL();
        const result = await trx.raw<{ rows: { id: string; inserted: boolean }[] }>(
          `${insert.sql} on conflict (network, source_domain, source_tx_hash, log_index) do update
              set block_number = excluded.block_number, block_hash = excluded.block_hash,
                  created_at = excluded.created_at, confirmed = excluded.confirmed
            where (transactions.block_hash, transactions.created_at, transactions.confirmed)
                  is distinct from (excluded.block_hash, excluded.created_at, excluded.confirmed)
            returning id::text, (xmax = 0) as inserted`,
          insert.bindings as Knex.RawBinding[],
        );
        inserted += result.rows.filter((r) => r.inserted).length;
        ids.push(...result.rows.map((r) => r.id));
      }
    }
    const received = batch.received.map((r) => ({
      ...r,
      block_number: r.block_number.toString(),
      mint_amount: r.mint_amount?.toString() ?? null,
      fee_executed: r.fee_executed?.toString() ?? null,
    }));
    for (let i = 0; i < received.length; i += INSERT_CHUNK_ROWS) {
      await trx('cctp_received')
        .insert(received.slice(i, i + INSERT_CHUNK_ROWS))
        .onConflict(['network', 'destination_domain', 'tx_hash', 'log_index'])
        .merge(['block_number', 'block_hash', 'mint_amount', 'fee_executed', 'received_at']);
    }
    await trx('transactions')
      .where({ network: batch.chain.network, source_domain: batch.chain.domain })
      .whereRaw('log_index is not null and not confirmed')
      .where('block_number', '<=', batch.safeBlock.toString())
      .update({ confirmed: true });
    await matchDestinations(trx, { kind: 'records', ids });
    await matchDestinations(trx, {
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
 */
export async function storedBlocksAbove(
  knex: Knex,
  chain: ChainKey,
  above: bigint,
): Promise<Map<bigint, Set<string>>> {
  const result = await knex.raw<{ rows: { block_number: string; block_hash: string }[] }>(
    `select distinct block_number, block_hash from transactions
      where network = ? and source_domain = ? and log_index is not null and block_number > ?
     union
     select distinct block_number, block_hash from cctp_received
      where network = ? and destination_domain = ? and block_number > ?`,
    [chain.network, chain.domain, above.toString(), chain.network, chain.domain, above.toString()],
  );
  const blocks = new Map<bigint, Set<string>>();
  for (const row of result.rows) {
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
  knex: Knex,
  chain: ChainKey,
  expected: Cursor,
  to: Cursor | undefined,
  canonical: ReadonlyMap<bigint, string>,
): Promise<number> {
  return knex.transaction(async (trx) => {
    await moveCursor(trx, chain, expected, to);
    const floor = (to?.number ?? -1n).toString();
    const keep = [...canonical].map(([n, h]) => `${n.toString()}:${h}`);
    const stale = (table: string, domainColumn: string) =>
      trx(table)
        .where({ network: chain.network, [domainColumn]: chain.domain })
        .where('block_number', '>', floor)
        .whereRaw(`not (block_number::text || ':' || block_hash = any(?::text[]))`, [keep]);
    const dropped: { tx_hash: string }[] = await stale('cctp_received', 'destination_domain')
      .delete()
      .returning(['tx_hash']);
    if (dropped.length > 0) {
      await trx('transactions')
        .where({ network: chain.network, destination_domain: chain.domain })
        .whereIn(
          'destination_tx_hash',
          dropped.map((d) => d.tx_hash),
        )
        .update({
          destination_tx_hash: null,
          destination_tx_status: 'pending',
          receive_amount: trx.raw('deposit_amount - relayer_fee'),
          ...UNRECEIVED,
        });
    }
    return Number(await stale('transactions', 'source_domain').whereNotNull('log_index').delete());
  });
}

/**
 * Deletes a chain's unconfirmed records at or below `height` whose origin transaction is not in
 * `keep` (a source whose finality is a commitment level, not a depth: a transaction seen at
 * `confirmed` that is not final once its slot is, was rolled back; docs/indexer.md "Solana").
 * The rollups follow through the delete trigger.
 *
 * @returns the number of records deleted.
 */
export async function deleteUnfinalized(
  knex: Knex,
  chain: ChainKey,
  height: bigint,
  keep: readonly string[],
): Promise<number> {
  return Number(
    await knex('transactions')
      .where({ network: chain.network, source_domain: chain.domain, confirmed: false })
      .whereNotNull('log_index')
      .where('block_number', '<=', height.toString())
      .whereRaw('not (source_tx_hash = any(?::text[]))', [[...keep]])
      .delete(),
  );
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
 */
export async function awaitedReceives(
  knex: Knex,
  chain: ChainKey,
  limit: number,
): Promise<AwaitedReceive[]> {
  const rows = (await knex('transactions')
    .select(knex.raw('id::text as id'), 'source_domain', 'version', 'cctp_nonce')
    .where({ network: chain.network, destination_domain: chain.domain })
    .whereNotNull('log_index')
    .whereNull('destination_tx_hash')
    .whereNotNull('cctp_nonce')
    .orderBy('created_at', 'desc')
    .limit(limit)) as { id: string; source_domain: string; version: number; cctp_nonce: string }[];
  return rows.map((r) => ({
    id: r.id,
    source_domain: Number(r.source_domain),
    version: r.version === 1 ? 1 : 2,
    cctp_nonce: r.cctp_nonce,
  }));
}
