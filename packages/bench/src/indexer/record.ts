/**
 * The stored results of `pnpm bench:indexer` (packages/bench/README.md "Indexer"):
 * `packages/bench/results/indexer.json` (committed), the latest run of each chain family, so a
 * run of some families (`--only`) keeps the others' rows; BENCHMARKS.md "Indexer" is rendered
 * from it (indexer/report.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Machine } from '../machine.js';
import { RESULTS_DIR } from '../paths.js';
import type { Family } from './options.js';
import { percentile } from './process.js';

/** p50 / p99 (ms) of `n` latencies. */
export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly n: number;
}

/** The figures of one family's latest run. */
export interface IndexerFamilyRecord {
  readonly measuredAt: string;
  /** The host then (its load average at the family's start shows other work). */
  readonly machine: Machine;
  /** The indexer's poll interval, ms. */
  readonly pollMs: number;
  readonly backfill: {
    readonly transfers: number;
    /** EVM: the blocks they were spread over. */
    readonly blocks?: number;
    readonly seconds: number;
    readonly transfersPerSecond: number;
  };
  readonly head: {
    /** Poll interval + 1 s, ms. */
    readonly boundMs: number;
    /** Transfer on the chain (block mined, slot landed, checkpoint / version served) -> record. */
    readonly inFeed: Percentiles;
    /** Position final (EVM: at the confirmation depth) -> `confirmed`; absent where records are written confirmed. */
    readonly confirmed?: Percentiles;
    /** EVM: the confirmation depth, blocks. */
    readonly confirmations?: number;
  };
}

/** Every family's latest run. */
export type IndexerRecord = Partial<Record<Family, IndexerFamilyRecord>>;

const FILE = path.join(RESULTS_DIR, 'indexer.json');

/** `values` as p50 / p99 / count. */
export const percentiles = (values: readonly number[]): Percentiles => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  n: values.length,
});

/** The stored record (empty when none). */
export async function loadIndexerRecord(): Promise<IndexerRecord> {
  try {
    return JSON.parse(await readFile(FILE, 'utf8')) as IndexerRecord;
  } catch {
    return {};
  }
}

/** Replaces the stored rows of the families in `run`, keeps the others; returns the merged record. */
export async function saveIndexerRecord(run: IndexerRecord): Promise<IndexerRecord> {
  const merged = { ...(await loadIndexerRecord()), ...run };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(FILE, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
