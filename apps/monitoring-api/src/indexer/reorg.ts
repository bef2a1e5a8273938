/**
 * The common ancestor after a reorg of any depth (docs/indexer.md "Writes, cursor and reorgs"):
 * the stored block hashes of a chain (the cursor history in `indexer_block_hashes`, and the
 * blocks of its stored records and receipts) are anchors, newest first. A block hash commits to
 * every block below it, so once one anchor matches the chain every older one does: the walk
 * checks anchors 1, 2, 4, 8 ... back from the newest until one matches, then bisects between
 * the last mismatch and that match, in O(log n) block reads however deep the reorg went.
 */
import type { Queryable } from '../db/statements.js';
import type { ChainKey, Cursor } from './cursor.js';

/** A stored block of the chain: number and the hash it had when it was written. */
export interface Anchor {
  readonly number: bigint;
  readonly hash: string;
}

/**
 * The chain's stored anchors at or below `at`, newest first (several hashes of one number
 * each count).
 *
 * @throws database errors.
 */
export async function anchorsAtOrBelow(
  db: Queryable,
  chain: ChainKey,
  at: bigint,
): Promise<Anchor[]> {
  const rows = await db.rows<{ block_number: string; block_hash: string }>(
    `select block_number, block_hash from indexer_block_hashes
      where network = $1 and domain = $2 and block_number <= $3
     union
     select distinct block_number, block_hash from transactions
      where network = $1 and source_domain = $2 and log_index is not null and block_number <= $3
     union
     select distinct block_number, block_hash from cctp_received
      where network = $1 and destination_domain = $2 and block_number <= $3
     order by block_number desc, block_hash`,
    [chain.network, chain.domain, at.toString()],
  );
  return rows.map((r) => ({ number: BigInt(r.block_number), hash: r.block_hash }));
}

/**
 * The newest anchor still on the chain.
 *
 * @param anchors newest first ({@link anchorsAtOrBelow}).
 * @param canonicalHash the chain's hash (lower case) at a block number; undefined when the
 *   chain has no such block.
 * @returns the matching anchor and the number of block reads it took; undefined when no
 *   anchor matches (the reorg reaches below every stored block).
 * @throws what `canonicalHash` throws (RPC errors).
 */
export async function commonAncestor(
  anchors: readonly Anchor[],
  canonicalHash: (number: bigint) => Promise<string | undefined>,
): Promise<{ anchor: Anchor; reads: number } | { anchor: undefined; reads: number }> {
  let reads = 0;
  const matches = async (i: number) => {
    reads++;
    const anchor = anchors[i]!;
    return (await canonicalHash(anchor.number)) === anchor.hash;
  };
  let miss = -1;
  let hit = -1;
  for (let step = 1, i = 0; i < anchors.length; step *= 2, i = miss + step) {
    if (await matches(i)) {
      hit = i;
      break;
    }
    miss = i;
  }
  if (hit < 0) {
    // The last probe may have skipped the tail: check the oldest anchor too.
    const last = anchors.length - 1;
    if (last > miss && (await matches(last))) hit = last;
    else return { anchor: undefined, reads };
  }
  while (hit - miss > 1) {
    const mid = miss + Math.floor((hit - miss) / 2);
    if (await matches(mid)) hit = mid;
    else miss = mid;
  }
  return { anchor: anchors[hit]!, reads };
}

/** Whether a reorg back to `ancestor` replaced blocks the writer had counted final. */
export function isDeepReorg(
  cursor: Cursor & { readonly safeBlock: bigint | null },
  ancestor: bigint,
): boolean {
  if (cursor.safeBlock === null) return false;
  const counted = cursor.safeBlock < cursor.number ? cursor.safeBlock : cursor.number;
  return ancestor < counted;
}
