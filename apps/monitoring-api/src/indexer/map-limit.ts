/** Bounded concurrency for the indexer's RPC reads (chain-indexer.ts, solana/source.ts). */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight.
 *
 * @returns the results in input order.
 * @throws the first error of `fn` (calls already started run to their end).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
