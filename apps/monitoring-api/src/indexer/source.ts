/**
 * What the runner drives (docs/indexer.md "Polling"): one source per indexed chain, of any
 * family. A source writes its records, its destination receipts and its cursor through
 * `store.ts` (one transaction per step, rows `confirmed` once final), so the rollups, the
 * attestation poller and the feeds read every family alike. The EVM source is `ChainIndexer`
 * (chain-indexer.ts), the Solana one `SolanaSource` (solana/source.ts).
 */
import type { TickResult } from './chain-indexer.js';

/** One indexed chain's source. */
export interface IndexerSource {
  readonly config: {
    /** Display name (logs, metrics, /health). */
    readonly name: string;
    readonly network: 'mainnet' | 'testnet';
    /** CCTP domain: with `network`, the key of the cursor, the lock and the attestation scope. */
    readonly domain: number;
    /** Pause between two idle steps, ms. */
    readonly pollIntervalMs: number;
  };
  /**
   * One step: standby without the chain's lock, else scan and write the next part (`scanned`,
   * `idle` at the head, `rewound` after a repair). Heights are the family's own (EVM block
   * numbers, Solana slots).
   *
   * @throws RPC and database errors; nothing of the step is written then.
   */
  tick(): Promise<TickResult>;
  /** Whether this process holds the chain's lock (is its writer and attestation poller). */
  isWriter(): boolean;
}
