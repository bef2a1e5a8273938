/**
 * The feed watermark (docs/api.md "Compression and HTTP caching", closed windows;
 * docs/decisions.md "D160. Closed feed windows and the indexer's watermark"): per network, the
 * time before which no record can still be added, moved or deleted by the indexer. Each indexed
 * chain records in `indexer_cursors.confirmed_time` the timestamp of its highest block that is
 * both scanned and final (indexer/cursor.ts); a network's watermark is the oldest of those over
 * the chains the indexer is configured with (`FEED_INDEXED_CHAINS`). A configured chain with no
 * cursor yet, or with no confirmed time, means no watermark: nothing is closed. A network with
 * no configured chain (the demo's seeded data) has no watermark either.
 *
 * The cursors are read at most once per {@link WATERMARK_REFRESH_MS} per process (concurrent
 * requests share one read); a failed read gives no watermark (the request is rendered as usual).
 */
import type { Queryable } from '../db/statements.js';
import type { Clock } from '../clock.js';
import type { TransferNetwork } from '@ctss/domain-types';

/** Milliseconds a read of the cursors is reused. */
export const WATERMARK_REFRESH_MS = 1_000;

/** One chain the indexer is configured with: its network and CCTP domain. */
export interface IndexedChain {
  readonly network: TransferNetwork;
  readonly domain: number;
}

/** The watermarks of both feeds ({@link createWatermark}). */
export interface Watermark {
  /**
   * The network's watermark, UNIX seconds: every record with `created_at` before it is final
   * (a window whose exclusive `end_time` is at or below it is closed). Undefined when there is
   * none (see the module comment). Never throws.
   */
  closedBefore(network: TransferNetwork): Promise<number | undefined>;
}

/** Options of {@link createWatermark}. */
export interface WatermarkOptions {
  /** The read pool. */
  readonly read: Queryable;
  /** The indexer's configured chains (FEED_INDEXED_CHAINS). */
  readonly chains: readonly IndexedChain[];
  /** The app clock (epoch milliseconds). */
  readonly clock: Clock;
}

type ConfirmedRow = { network: string; domain: string; confirmed: string | null };

/**
 * Parses `FEED_INDEXED_CHAINS`: `network:domain` entries separated by commas, e.g.
 * `mainnet:0,mainnet:6`; empty = none.
 *
 * @throws Error naming the first malformed entry.
 */
export function parseIndexedChains(text: string): IndexedChain[] {
  const chains: IndexedChain[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^(mainnet|testnet):(\d{1,10})$/.exec(entry);
    if (!match || Number(match[2]) > 4_294_967_295) {
      throw new Error(`"${entry}" is not network:domain (mainnet|testnet, CCTP domain)`);
    }
    chains.push({ network: match[1] as TransferNetwork, domain: Number(match[2]) });
  }
  return chains;
}

/** Creates the watermark reader (see the module comment). */
export function createWatermark(options: WatermarkOptions): Watermark {
  const { read, chains, clock } = options;
  const wanted = (network: TransferNetwork) => chains.filter((c) => c.network === network);
  let readAt = -Infinity;
  let current: Promise<Map<TransferNetwork, number | undefined>> | undefined;
  const load = async (): Promise<Map<TransferNetwork, number | undefined>> => {
    const result =
      await read.execute<ConfirmedRow>(`select network, domain::text, floor(extract(epoch from confirmed_time))::int8::text as confirmed
         from indexer_cursors where domain is not null`);
    const confirmed = new Map<string, number | null>();
    for (const row of result.rows) {
      confirmed.set(
        `${row.network}:${row.domain}`,
        row.confirmed === null ? null : Number(row.confirmed),
      );
    }
    const marks = new Map<TransferNetwork, number | undefined>();
    for (const network of ['mainnet', 'testnet'] as const) {
      const own = wanted(network);
      let mark: number | undefined = own.length === 0 ? undefined : Infinity;
      for (const chain of own) {
        const time = confirmed.get(`${network}:${chain.domain}`);
        mark =
          time === undefined || time === null || mark === undefined
            ? undefined
            : Math.min(mark, time);
      }
      marks.set(network, mark);
    }
    return marks;
  };
  return {
    async closedBefore(network) {
      if (wanted(network).length === 0) return undefined;
      const now = clock();
      if (current === undefined || now - readAt >= WATERMARK_REFRESH_MS || now < readAt) {
        readAt = now;
        current = load();
      }
      try {
        return (await current).get(network);
      } catch {
        // Read again on the next request.
        readAt = -Infinity;
        return undefined;
      }
    },
  };
}
