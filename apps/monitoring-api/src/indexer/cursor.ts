/**
 * A chain's cursor and its history (docs/indexer.md "Writes, cursor and reorgs"). The cursor is
 * keyed by the chain's identity, its network and CCTP domain, never by its display name
 * (renaming a chain keeps its cursor); a cursor written before that key existed (name only) is
 * adopted by the first writer configured with that name. Every move also keeps the hash of the
 * range's last block in `indexer_block_hashes`, the anchors a reorg repair walks back over
 * (reorg.ts), the newest {@link CHECKPOINTS_KEPT} per chain.
 */
import type { Knex } from 'knex';

/** A chain's scan position: the last block fully written, and its hash. */
export interface Cursor {
  readonly number: bigint;
  readonly hash: string;
}

/** The rows of one chain: its network and CCTP domain. */
export interface ChainKey {
  readonly name: string;
  readonly network: 'mainnet' | 'testnet';
  readonly domain: number;
}

/** A cursor as stored, with the highest block its writer counted final. */
export interface StoredCursor extends Cursor {
  /** Highest block number counted final at the last write; null before it was recorded. */
  readonly safeBlock: bigint | null;
}

/** Block hashes kept per chain for the reorg walk-back (one per written range). */
const CHECKPOINTS_KEPT = 10_000;

/** Thrown when the stored cursor is not the one this writer read (another writer moved it). */
class CursorMovedError extends Error {
  constructor(chain: string) {
    super(`cursor of ${chain} moved under this writer`);
    this.name = 'CursorMovedError';
  }
}

type CursorRow = { block_number: string; block_hash: string; safe_block: string | null };

const toCursor = (row: CursorRow): StoredCursor => ({
  number: BigInt(row.block_number),
  hash: row.block_hash,
  safeBlock: row.safe_block === null ? null : BigInt(row.safe_block),
});

/**
 * Reads a chain's cursor by its network and domain; adopts a name-only cursor of
 * `chain.name` (written before cursors had a domain) when there is none.
 *
 * @returns undefined before the chain's first batch.
 * @throws database errors.
 */
export async function readCursor(
  knex: Knex | Knex.Transaction,
  chain: ChainKey,
): Promise<StoredCursor | undefined> {
  const row: CursorRow | undefined = await knex('indexer_cursors')
    .where({ network: chain.network, domain: chain.domain })
    .first('block_number', 'block_hash', 'safe_block');
  if (row) return toCursor(row);
  const adopted: CursorRow[] = await knex('indexer_cursors')
    .where({ chain: chain.name })
    .whereNull('domain')
    .update({ network: chain.network, domain: chain.domain })
    .returning(['block_number', 'block_hash', 'safe_block']);
  return adopted[0] ? toCursor(adopted[0]) : undefined;
}

/**
 * Moves the cursor from `expected` to `next` (compare-and-set on number and hash), records
 * `next` as a block-hash checkpoint and drops the checkpoints above it; `next` undefined deletes
 * the cursor and every checkpoint (back before the first block).
 *
 * @param safeBlock the highest block counted final now (recorded for deep-reorg detection);
 *   undefined keeps the stored one, lowered to `next` when above it.
 * @param confirmedTime the timestamp of block min(`next`, `safeBlock`) (the feed watermark,
 *   transactions/watermark.ts); undefined keeps the stored one while `next` stays at or above
 *   the stored safe block, else clears it (a reorg of final blocks).
 * @throws {CursorMovedError} when the stored cursor is not `expected`.
 */
export async function moveCursor(
  trx: Knex.Transaction,
  chain: ChainKey,
  expected: Cursor | undefined,
  next: Cursor | undefined,
  safeBlock?: bigint,
  confirmedTime?: Date,
): Promise<void> {
  const key = { network: chain.network, domain: chain.domain };
  let changed: number;
  if (!expected) {
    if (!next) return;
    const result = await trx.raw<{ rowCount: number }>(
      `insert into indexer_cursors
         (chain, network, domain, block_number, block_hash, safe_block, confirmed_time)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (network, domain) where domain is not null do nothing`,
      [
        chain.name,
        chain.network,
        chain.domain,
        next.number.toString(),
        next.hash,
        safeBlock?.toString() ?? null,
        confirmedTime ?? null,
      ],
    );
    changed = result.rowCount;
  } else {
    const guard = trx('indexer_cursors').where({
      ...key,
      block_number: expected.number.toString(),
      block_hash: expected.hash,
    });
    changed = next
      ? await guard.update({
          chain: chain.name,
          block_number: next.number.toString(),
          block_hash: next.hash,
          safe_block:
            safeBlock === undefined
              ? trx.raw('least(safe_block, ?)', [next.number.toString()])
              : safeBlock.toString(),
          confirmed_time:
            confirmedTime ??
            trx.raw('case when safe_block <= ? then confirmed_time end', [next.number.toString()]),
          updated_at: trx.fn.now(),
        })
      : await guard.delete();
  }
  if (changed !== 1) throw new CursorMovedError(chain.name);
  const history = trx('indexer_block_hashes').where(key);
  if (!next) {
    await history.delete();
    return;
  }
  await history.clone().where('block_number', '>', next.number.toString()).delete();
  await trx('indexer_block_hashes')
    .insert({ ...key, block_number: next.number.toString(), block_hash: next.hash })
    .onConflict(['network', 'domain', 'block_number'])
    .merge(['block_hash']);
  await trx.raw(
    `delete from indexer_block_hashes
      where network = ? and domain = ? and block_number < (
        select block_number from indexer_block_hashes where network = ? and domain = ?
         order by block_number desc offset ? limit 1)`,
    [chain.network, chain.domain, chain.network, chain.domain, CHECKPOINTS_KEPT - 1],
  );
}
