/**
 * Results of runs, kept as JSON per dataset size under packages/bench/results/ (committed), so
 * BENCHMARKS.md always shows the latest figures of every size and `--only` reruns update single
 * workloads without dropping the others.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CpuPerRequest } from './cpu.js';
import type { SseFanoutResult } from './sse.js';
import type { FanoutResult } from './websocket.js';
import type { Machine } from './machine.js';
import type { PointsJobResult } from './points/measure.js';
import type { Group, Service } from './workloads.js';
import { RESULTS_DIR } from './paths.js';

/** The measured figures of one HTTP workload. Latency ms, RSS MB. */
export interface WorkloadRecord {
  readonly name: string;
  readonly description: string;
  readonly service: Service;
  readonly group: Group;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly rps: number;
  /** rps / the baseline's rps: the hello-world around it, or `baselineRps`. */
  readonly ratio: number;
  /** Mean req/s of the hello-worlds measured just before and just after this workload. */
  readonly helloRps: number;
  /**
   * The workload the ratio is against when it is not the hello-world (e.g.
   * `same-bytes-window-page`), measured just before in the same round, and its req/s.
   */
  readonly baseline?: string | undefined;
  readonly baselineRps?: number | undefined;
  readonly p50: number;
  readonly p99: number;
  readonly averageMs: number;
  readonly peakRssMb: number | undefined;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statuses: Record<string, number>;
  /** The one status every response had to have; absent = any 2xx. */
  readonly expectStatus?: number | undefined;
  /** Mean bytes received per response, headers included (absent in older records). */
  readonly bytesPerResponse?: number | undefined;
  /** CPU per request by party during the measured run (Linux). */
  readonly cpu?: CpuPerRequest | undefined;
  readonly measuredAt: string;
  /**
   * The ratio of every round, in the order measured, when the workload ran in more than one
   * (the other figures are the median round's: rounds.ts).
   */
  readonly roundRatios?: readonly number[] | undefined;
  /**
   * The database floor of a feed workload (db-floor.ts), measured just after it in the same
   * round: the API's own feed statements over a bare `pg` loop at the same concurrency.
   */
  readonly floor?: FloorFigures | undefined;
  /** `rps / floor.rps` of every round, in the order measured (several rounds). */
  readonly roundFloorRatios?: readonly number[] | undefined;
  /**
   * Set on a workload measured by a later subset run (`--only`) than the run its record
   * describes: where and when it was measured ({@link mergeRun}).
   */
  readonly origin?: WorkloadOrigin | undefined;
}

/** The run a workload of a subset run (`--only`) was measured in, kept on the workload. */
export interface WorkloadOrigin {
  /** When that run started (ISO 8601). */
  readonly date: string;
  readonly machine: Machine;
  /** That run's hello-world measurements, req/s. */
  readonly helloRps: readonly number[];
  /** That run's note (e.g. extra service environment). */
  readonly note?: string | undefined;
}

/** A workload's database floor: statements/s, latencies (ms) and CPU per statement. */
interface FloorFigures {
  readonly rps: number;
  /** The workload's req/s over `rps`. */
  readonly ratio: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpu?: CpuPerRequest | undefined;
}

/** The WebSocket fan-out figures. */
export interface FanoutRecord extends FanoutResult {
  readonly peakRssMb: number | undefined;
  readonly measuredAt: string;
}

/** The live-feed (SSE) fan-out figures. */
export interface SseFanoutRecord extends SseFanoutResult {
  /**
   * How the events reached the streams' API: `redis` (its clients are on a follower replica,
   * the leader publishing through Redis: docs/decisions.md "D200. Live feed: one listener,
   * fanned out through Redis"); absent in records measured before the fan-out (LISTEN per API).
   */
  readonly via?: 'redis';
  readonly peakRssMb: number | undefined;
  readonly measuredAt: string;
}

/** The points and rank job's cost (`points-job`, points/measure.ts); times in seconds. */
export interface PointsJobRecord extends PointsJobResult {
  readonly measuredAt: string;
  /** One-minute load average of the host when it started. */
  readonly loadAtStart: number;
}

/** Everything about the latest runs on one dataset size. */
export interface RunRecord {
  readonly transactions: number;
  readonly users: number;
  readonly mainnetRows: number | undefined;
  readonly seedSeconds: number | undefined;
  readonly machine: Machine;
  readonly date: string;
  readonly note: string | undefined;
  /**
   * Hello-world req/s of each measurement in the latest run: start and end, and with
   * `pairedHelloSeconds` also the one before each HTTP workload.
   */
  readonly helloRps: number[];
  /**
   * When set, a hello-world of this many seconds runs before each HTTP workload, and each
   * workload's ratio is against the mean of the one before and the one after it (the machine's
   * speed drifts within a run); absent = against the mean of the start and end hello-world (runs
   * before 2026-11-22).
   */
  readonly pairedHelloSeconds?: number;
  /**
   * How many rounds measured each HTTP workload, each on freshly started APIs (the workload
   * records hold the median round: rounds.ts); absent = one (records
   * written before rounds were counted).
   */
  readonly rounds?: number;
  /**
   * Set on a run that measured a subset of the workloads (`--only`); never stored: such a run's
   * workloads join the stored run's ({@link mergeRun}).
   */
  readonly partial?: boolean;
  readonly workloads: WorkloadRecord[];
  readonly fanout: FanoutRecord | undefined;
  /** The live-feed fan-out (`sse-fanout`); absent in records written before it existed. */
  readonly sseFanout?: SseFanoutRecord | undefined;
  /** The points job's cost (`points-job`); absent in records written before it existed. */
  readonly pointsJob?: PointsJobRecord | undefined;
}

const fileOf = (transactions: number) =>
  path.join(RESULTS_DIR, `transactions-${transactions}.json`);

/** The stored record of `transactions`, if any. */
export async function loadRecord(transactions: number): Promise<RunRecord | undefined> {
  try {
    return JSON.parse(await readFile(fileOf(transactions), 'utf8')) as RunRecord;
  } catch {
    return undefined;
  }
}

/** Every stored record, smallest dataset first. */
export async function loadAllRecords(): Promise<RunRecord[]> {
  let files: string[];
  try {
    files = await readdir(RESULTS_DIR);
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  for (const f of files.filter((name) => /^transactions-\d+\.json$/.test(name))) {
    records.push(JSON.parse(await readFile(path.join(RESULTS_DIR, f), 'utf8')) as RunRecord);
  }
  return records.sort((a, b) => a.transactions - b.transactions);
}

/**
 * `run` merged into `previous`, the stored record of its size (undefined: none yet), workloads
 * replaced by name:
 * - a run that measured no HTTP workload (only the fan-outs or the points job) keeps the stored
 *   run's date, machine, note and hello-world figures, which describe the HTTP rows;
 * - a subset run (`partial`, `--only`) keeps them too: its workloads join the stored table, each
 *   with its {@link WorkloadOrigin} (the report marks it), and its baselines (hello-world, the
 *   same-bytes page) replace no stored baseline, since the stored rows' ratios were measured
 *   against those (each subset row carries its own baseline figures);
 * - any other run replaces the header and every workload it measured.
 *
 * Pure: the caller stores the result ({@link saveRecord}).
 */
export function mergeRun(previous: RunRecord | undefined, run: RunRecord): RunRecord {
  const extrasOnly = previous !== undefined && run.workloads.every((w) => w.group === 'baseline');
  const subset = previous !== undefined && run.partial === true && !extrasOnly;
  const byName = new Map((previous?.workloads ?? []).map((w) => [w.name, w]));
  if (subset) {
    const origin: WorkloadOrigin = {
      date: run.date,
      machine: run.machine,
      helloRps: run.helloRps,
      note: run.note,
    };
    for (const w of run.workloads)
      if (w.group !== 'baseline' || !byName.has(w.name)) byName.set(w.name, { ...w, origin });
  } else if (!extrasOnly) for (const w of run.workloads) byName.set(w.name, w);
  return {
    ...(extrasOnly || subset ? previous : run),
    partial: undefined,
    workloads: [...byName.values()],
    fanout: run.fanout ?? previous?.fanout,
    sseFanout: run.sseFanout ?? previous?.sseFanout,
    pointsJob: run.pointsJob ?? previous?.pointsJob,
  };
}

/** Merges `run` into the stored record of its size ({@link mergeRun}) and saves it. */
export async function saveRecord(run: RunRecord): Promise<RunRecord> {
  const merged = mergeRun(await loadRecord(run.transactions), run);
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(fileOf(run.transactions), `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
