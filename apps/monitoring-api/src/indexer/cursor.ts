/**
 * A chain's cursor and its history (docs/indexer.md "Writes, cursor and reorgs"). The cursor is
 * keyed by the chain's identity, its network and CCTP domain, never by its display name
 * (renaming a chain keeps its cursor); a cursor written before that key existed (name only) is
 * adopted by the first writer configured with that name. Every move also keeps the hash of the
 * range's last block in `indexer_block_hashes`, the anchors a reorg repair walks back over
 * (reorg.ts), the newest {@link CHECKPOINTS_KEPT} per chain.
 */
import type { Queryable } from '../db/statements.js';

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
  db: Queryable,
  chain: ChainKey,
): Promise<StoredCursor | undefined> {
  const row = await db.first<CursorRow>(
    `select block_number, block_hash, safe_block from indexer_cursors
      where network = $1 and domain = $2
      limit 1`,
    [chain.network, chain.domain],
  );
  if (row) return toCursor(row);
  const adopted = await db.first<CursorRow>(
    `update indexer_cursors set network = $2, domain = $3
      where chain = $1 and domain is null
      returning block_number, block_hash, safe_block`,
    [chain.name, chain.network, chain.domain],
  );
  return adopted ? toCursor(adopted) : undefined;
}

/**
 * Moves the cursor from `expected` to `next` (compare-and-set on number and hash), records
 * `next` as a block-hash checkpoint and drops the checkpoints above it; `next` undefined deletes
 * the cursor and every checkpoint (back before the first block). Run it inside the transaction
 * of the batch it guards.
 *
 * @param safeBlock the highest block counted final now (recorded for deep-reorg detection);
 *   undefined keeps the stored one, lowered to `next` when above it.
 * @param confirmedTime the timestamp of block min(`next`, `safeBlock`) (the feed watermark,
 *   transactions/watermark.ts); undefined keeps the stored one while `next` stays at or above
 *   the stored safe block, else clears it (a reorg of final blocks).
 * @throws {CursorMovedError} when the stored cursor is not `expected`.
 */
export async function moveCursor(
  tx: Queryable,
  chain: ChainKey,
  expected: Cursor | undefined,
  next: Cursor | undefined,
  safeBlock?: bigint,
  confirmedTime?: Date,
): Promise<void> {
  const key = [chain.network, chain.domain];
  let changed: number;
  if (!expected) {
    if (!next) return;
    const result = await tx.execute(
      `insert into indexer_cursors
         (chain, network, domain, block_number, block_hash, safe_block, confirmed_time)
       values ($1, $2, $3, $4, $5, $6, $7)
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
    const guard = [...key, expected.number.toString(), expected.hash];
    const result = next
      ? await tx.execute(
          `update indexer_cursors
              set chain = $5, block_number = $6, block_hash = $7,
                  safe_block = coalesce($8::bigint, least(safe_block, $6)),
                  confirmed_time = coalesce($9::timestamptz,
                                            case when safe_block <= $6 then confirmed_time end),
                  updated_at = now()
            where network = $1 and domain = $2 and block_number = $3 and block_hash = $4`,
          [
            ...guard,
            chain.name,
            next.number.toString(),
            next.hash,
            safeBlock?.toString() ?? null,
            confirmedTime ?? null,
          ],
        )
      : await tx.execute(
          `delete from indexer_cursors
            where network = $1 and domain = $2 and block_number = $3 and block_hash = $4`,
          guard,
        );
    changed = result.rowCount;
  }
  if (changed !== 1) throw new CursorMovedError(chain.name);
  if (!next) {
    await tx.execute('delete from indexer_block_hashes where network = $1 and domain = $2', key);
    return;
  }
  await tx.execute(
    `delete from indexer_block_hashes where network = $1 and domain = $2 and block_number > $3`,
    [...key, next.number.toString()],
  );
  await tx.execute(
    `insert into indexer_block_hashes (network, domain, block_number, block_hash)
     values ($1, $2, $3, $4)
     on conflict (network, domain, block_number) do update set block_hash = excluded.block_hash`,
    [...key, next.number.toString(), next.hash],
  );
  await tx.execute(
    `delete from indexer_block_hashes
      where network = $1 and domain = $2 and block_number < (
        select block_number from indexer_block_hashes where network = $1 and domain = $2
         order by block_number desc offset $3 limit 1)`,
    [...key, CHECKPOINTS_KEPT - 1],
  );
}
