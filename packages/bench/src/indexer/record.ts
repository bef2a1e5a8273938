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

/** p50 / p99 (ms) of `n` latencies out of `samples` transfers timed. */
export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  /** Transfers whose latency was read. */
  readonly n: number;
  /**
   * Transfers timed; `n` below it means some were never read before the deadline, and the row is
   * not met ({@link latencyMet}). Absent: `n` (every transfer read).
   */
  readonly samples?: number;
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

/** `values` (ms, one per transfer read) as p50 / p99 / count, out of `samples` transfers timed. */
export const percentiles = (values: readonly number[], samples: number): Percentiles => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  n: values.length,
  samples,
});

/** Transfers timed but never read (0 when every one was). */
export const missing = (p: Percentiles): number => Math.max(0, (p.samples ?? p.n) - p.n);

/**
 * Whether the bound (`boundMs`) is met: p99 within it and every transfer timed read (a transfer
 * never read counts as a latency beyond any bound; no latency at all is not met).
 */
export const latencyMet = (p: Percentiles, boundMs: number): boolean =>
  p.n > 0 && missing(p) === 0 && p.p99 <= boundMs;

/**
 * The stored record (empty when the file does not exist yet).
 *
 * @throws when the file cannot be read or is not JSON (a run must not overwrite it then: the other
 *   families' rows would be lost).
 */
export async function loadIndexerRecord(): Promise<IndexerRecord> {
  let text: string;
  try {
    text = await readFile(FILE, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    return JSON.parse(text) as IndexerRecord;
  } catch (err) {
    throw new Error(`${FILE} is not JSON (${(err as Error).message}); fix or remove it`, {
      cause: err,
    });
  }
}

/**
 * Replaces the stored rows of the families in `run`, keeps the others; returns the merged record.
 *
 * @throws what {@link loadIndexerRecord} throws (the file is left as it was).
 */
export async function saveIndexerRecord(run: IndexerRecord): Promise<IndexerRecord> {
  const merged = { ...(await loadIndexerRecord()), ...run };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(FILE, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
