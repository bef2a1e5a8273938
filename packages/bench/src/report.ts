/**
 * Renders BENCHMARKS.md from the stored results (the latest run of every dataset size): how to
 * run, what each workload is, and the tables; and the section printed at the end of a run.
 */
import { indexerSection } from './indexer/report.js';
import type { IndexerRecord } from './indexer/record.js';
import type { Machine } from './machine.js';
import { median } from './median.js';
import type {
  FanoutRecord,
  PointsJobRecord,
  RunRecord,
  SseFanoutRecord,
  WorkloadOrigin,
  WorkloadRecord,
} from './results.js';
import {
  HELLO_WORLD_32,
  httpWorkloads,
  PLACEHOLDER_PARAMS,
  REFERENCE_TRANSACTIONS,
  SCALING_FACTOR_TARGET,
  targetOf,
  WORKLOAD_ORDER,
  WS_FANOUT_TARGET_MS,
  type HttpWorkload,
} from './workloads.js';

/** Verdict of one workload against its targets. */
export interface Verdict {
  readonly pass: boolean;
  /** What missed, e.g. `p99 31 ms >= 25`; empty when it passed. */
  readonly misses: string[];
}

/**
 * Responses of `w` with another status than the one expected: not 304 for a workload that
 * expects 304 (`expectStatus`), outside 200-299 otherwise (autocannon's non-2xx count).
 */
export function unexpectedResponses(
  w: Pick<WorkloadRecord, 'statuses' | 'non2xx' | 'expectStatus'>,
): number {
  if (w.expectStatus === undefined) return w.non2xx;
  return Object.entries(w.statuses)
    .filter(([status]) => status !== String(w.expectStatus))
    .reduce((sum, [, count]) => sum + count, 0);
}

/**
 * Checks `w` against its targets (`targetOf`), and its validity: every response with the expected
 * status (any 2xx, or `expectStatus`) and no socket errors. With `floorPending` (its database
 * floor is measured next) a missing floor is not a miss yet.
 */
export function judge(w: WorkloadRecord, opts: { floorPending?: boolean } = {}): Verdict {
  const t = targetOf(w.name, w.group);
  const misses: string[] = [];
  const unexpected = unexpectedResponses(w);
  if (unexpected > 0 || w.errors > 0)
    misses.push(
      `invalid: ${unexpected} ${w.expectStatus === undefined ? 'non-2xx' : `not ${w.expectStatus}`} (${JSON.stringify(w.statuses)}), ${w.errors} errors`,
    );
  if (t.minRatio !== undefined && w.ratio < t.minRatio)
    misses.push(`ratio ${w.ratio.toFixed(2)} < ${t.minRatio}`);
  if (
    t.minFloorRatio !== undefined &&
    !(opts.floorPending && !w.floor) &&
    !((w.floor?.ratio ?? 0) >= t.minFloorRatio)
  )
    misses.push(
      w.floor
        ? `${w.floor.ratio.toFixed(2)}x of the database floor < ${t.minFloorRatio}`
        : 'no database floor measured',
    );
  if (t.maxP99 !== undefined && !(w.p99 < t.maxP99)) misses.push(`p99 ${w.p99} ms >= ${t.maxP99}`);
  if (t.maxRssMb !== undefined && w.peakRssMb !== undefined && !(w.peakRssMb < t.maxRssMb))
    misses.push(`RSS ${w.peakRssMb} MB >= ${t.maxRssMb}`);
  return { pass: misses.length === 0, misses };
}

/** Verdict of the fan-out. */
export function judgeFanout(f: FanoutRecord): Verdict {
  const misses: string[] = [];
  if (f.connected < f.requested)
    misses.push(`only ${f.connected}/${f.requested} clients connected`);
  if (!(f.medianLastMs < WS_FANOUT_TARGET_MS))
    misses.push(`median last-client ${f.medianLastMs.toFixed(0)} ms >= ${WS_FANOUT_TARGET_MS}`);
  if (f.peakRssMb !== undefined && !(f.peakRssMb < 300))
    misses.push(`RSS ${f.peakRssMb} MB >= 300`);
  return { pass: misses.length === 0, misses };
}

function targetText(w: Pick<WorkloadRecord, 'name' | 'group' | 'baseline'>): string {
  const t = targetOf(w.name, w.group);
  const parts: string[] = [];
  if (t.minRatio !== undefined)
    parts.push(
      `>= ${t.minRatio.toFixed(2)}x of ${w.baseline ? `\`${w.baseline}\`` : 'hello-world'}`,
    );
  if (t.minFloorRatio !== undefined)
    parts.push(`>= ${t.minFloorRatio.toFixed(2)}x of its database floor`);
  if (t.maxP99 !== undefined) parts.push(`p99 < ${t.maxP99} ms`);
  if (t.maxRssMb !== undefined) parts.push(`RSS < ${t.maxRssMb} MB`);
  return parts.length ? parts.join(', ') : 'baseline';
}

const order = (w: { name: string }) => {
  const i = WORKLOAD_ORDER.indexOf(w.name);
  return i < 0 ? WORKLOAD_ORDER.length : i;
};
const num = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${n} MB`);

/**
 * Scaling of a workload against the reference size. Shows req/s and p99 factors as measured, then
 * the same two factors with the host's speed taken out, which decide the 1.5x target: the
 * throughput factor of the ratios to hello-world (`rps / helloRps` of each), and the p99 in units of
 * the paired hello-world's time per request (`p99 * helloRps`; at a fixed connection count the
 * latency scales with 1 / req/s, so a host that serves everything 1.4x slower raises every p99
 * 1.4x). Two runs on one host an hour apart differed by 1.4x in hello-world req/s (BENCHMARKS.md,
 * 2026-11-23), so the measured factors alone would judge the host, not the table. p99 gets 1 ms
 * of rounding allowance.
 */
function scaling(
  w: WorkloadRecord,
  ref: WorkloadRecord | undefined,
): { text: string; pass: boolean } | undefined {
  if (!ref || (w.group !== 'feed' && w.group !== 'stats')) return undefined;
  const rpsFactor = ref.rps / w.rps;
  const p99Factor = w.p99 / Math.max(ref.p99, 1);
  const normalized = ref.rps / ref.helloRps / (w.rps / w.helloRps);
  /** A p99 of this run, ms, over the reference p99, both in hello-world time per request. */
  const p99Normalized = (p99: number) => (p99 * w.helloRps) / (Math.max(ref.p99, 1) * ref.helloRps);
  const pass =
    normalized <= SCALING_FACTOR_TARGET && p99Normalized(w.p99 - 1) <= SCALING_FACTOR_TARGET;
  return {
    text: `req/s ${rpsFactor.toFixed(2)}x lower, p99 ${p99Factor.toFixed(2)}x; against hello-world: ${normalized.toFixed(2)}x, p99 ${p99Normalized(w.p99).toFixed(2)}x`,
    pass,
  };
}

/** Whether `run` gets the scaling column: a reference run of another size exists. */
const comparesWith = (run: RunRecord, reference: RunRecord | undefined): reference is RunRecord =>
  reference !== undefined && reference !== run;

/** `; median of 3: 0.72 / 0.78 / 0.80` for a workload measured in several rounds, else nothing. */
const roundsText = (w: WorkloadRecord): string =>
  w.roundRatios && w.roundRatios.length > 1
    ? `; median of ${w.roundRatios.length}: ${w.roundRatios.map((r) => r.toFixed(2)).join(' / ')}`
    : '';

/**
 * `0.35x of \`same-bytes-window-page\` (4,232; median of 3: ...)`, `0.70x of hello-world (14,735;
 * ...)` for a workload with a paired baseline, the bare ratio for the run's hello-world rows.
 */
function ratioText(run: RunRecord, w: WorkloadRecord): string {
  const ratio = `${w.ratio.toFixed(2)}x`;
  if (!run.pairedHelloSeconds || w.name === 'hello-world' || w.name === HELLO_WORLD_32)
    return ratio;
  const of = w.baseline ? `\`${w.baseline}\`` : 'hello-world';
  return `${ratio} of ${of} (${num(w.baselineRps ?? w.helloRps)}${roundsText(w)})${floorText(w)}`;
}

/**
 * `; 0.52x of the database floor (2,750 statements/s, p99 30 ms; rounds 0.50 / 0.52 / 0.55)` for
 * a feed workload measured with its floor (db-floor.ts), else ''.
 */
function floorText(w: WorkloadRecord): string {
  if (!w.floor) return '';
  const rounds =
    w.roundFloorRatios && w.roundFloorRatios.length > 1
      ? `; rounds ${w.roundFloorRatios.map((r) => r.toFixed(2)).join(' / ')}`
      : '';
  const pg = w.floor.cpu ? `, ${num(w.floor.cpu.postgresUs)} us PostgreSQL CPU/statement` : '';
  return `; ${w.floor.ratio.toFixed(2)}x of the database floor (${num(w.floor.rps)} statements/s, p99 ${w.floor.p99} ms${pg}${rounds})`;
}

/**
 * The subset runs (`--only`, results.ts `mergeRun`) whose workloads `run`'s table holds, by
 * date, numbered from 1 in date order for the table's notes.
 */
function subsetRuns(
  run: RunRecord,
): Map<string, { readonly n: number; readonly origin: WorkloadOrigin }> {
  const byDate = new Map<string, WorkloadOrigin>();
  for (const w of run.workloads) if (w.origin) byDate.set(w.origin.date, w.origin);
  const dates = [...byDate.keys()].sort();
  return new Map(dates.map((date, i) => [date, { n: i + 1, origin: byDate.get(date)! }]));
}

/** A workload's name cell: its name, and the number of the subset run that measured it. */
function nameCell(run: RunRecord, w: WorkloadRecord): string {
  const subset = w.origin ? subsetRuns(run).get(w.origin.date) : undefined;
  return `\`${w.name}\`${subset ? ` [${subset.n}]` : ''}`;
}

/** The notes under the table: where each subset run's rows were measured. */
function subsetNotes(run: RunRecord): string[] {
  const runs = [...subsetRuns(run).values()];
  if (runs.length === 0) return [];
  return [
    '',
    ...runs.map(
      ({ n, origin: o }) =>
        `[${n}] Measured by a later run of these rows alone (\`pnpm bench --only\`), not in the run above: ${o.date}; ${machineText(o.machine)}; hello-world ${helloRange(o.helloRps)} req/s${o.note ? `; ${o.note}` : ''}. Its ratios are against that run's own hello-world and baselines (the figures in the row).`,
    ),
  ];
}

/** A machine in one line, as the section's header gives it. */
function machineText(m: Machine): string {
  return `${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.kernel}, Node ${m.node}; load average at start ${m.loadAtStart}; open-files limit ${m.openFilesLimit ?? 'n/a'}${m.systemCallMicros === undefined ? '' : `; ${m.systemCallMicros} us of kernel CPU per system call`}`;
}

/** The lowest and highest of hello-world measurements, req/s. */
function helloRange(rps: readonly number[]): string {
  return `${num(Math.min(...rps))}-${num(Math.max(...rps))}`;
}

function workloadTable(run: RunRecord, reference: RunRecord | undefined): string[] {
  const withScaling = comparesWith(run, reference);
  const head = [
    'Workload',
    'Conn',
    'req/s',
    'ratio',
    'p50',
    'p99',
    'bytes/response',
    'peak RSS',
    'target',
    'result',
  ];
  if (withScaling)
    head.push(`vs ${num(reference.transactions)} rows (<= ${SCALING_FACTOR_TARGET}x)`);
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const w of [...run.workloads].sort((a, b) => order(a) - order(b))) {
    const v = judge(w);
    const cells = [
      nameCell(run, w),
      String(w.connections),
      num(w.rps),
      ratioText(run, w),
      `${w.p50} ms`,
      `${w.p99} ms`,
      w.bytesPerResponse === undefined ? '' : num(w.bytesPerResponse),
      mb(w.peakRssMb),
      w.group === 'baseline' ? 'baseline' : targetText(w),
      w.group === 'baseline' ? '' : v.pass ? 'PASS' : `**FAIL** (${v.misses.join('; ')})`,
    ];
    if (withScaling) {
      const s = scaling(
        w,
        reference.workloads.find((r) => r.name === w.name),
      );
      cells.push(s ? `${s.text} ${s.pass ? 'PASS' : '**FAIL**'}` : '');
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

function cpuTable(run: RunRecord): string[] {
  const rows = [...run.workloads]
    .sort((a, b) => order(a) - order(b))
    .filter((w) => w.cpu !== undefined);
  if (rows.length === 0) return [];
  return [
    '',
    'CPU time per request during the measured run, microseconds, from /proc: PostgreSQL and Redis are all their server processes, "other" everything else on the machine, "steal" the share of its time the hypervisor gave to other guests (counted in "machine busy").',
    '',
    '| Workload | API process | PostgreSQL | Redis | load generator | other | machine busy | steal |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((w) => {
      const c = w.cpu!;
      return `| ${nameCell(run, w)} | ${c.apiUs} | ${c.postgresUs} | ${c.redisUs} | ${c.loadGeneratorUs} | ${c.otherUs} | ${Math.round(c.machineBusy * 100)} % | ${c.steal === undefined ? 'n/a' : `${Math.round(c.steal * 100)} %`} |`;
    }),
  ];
}

function fanoutSection(f: FanoutRecord): string[] {
  const v = judgeFanout(f);
  return [
    '',
    `WebSocket \`/subscribe\` fan-out (\`ws-fanout\`): ${num(f.connected)} of ${num(f.requested)} clients connected and received the snapshot in ${f.connectSeconds.toFixed(1)} s; then ${f.rounds.length} updates were published on the Redis channel the API subscribes to.`,
    '',
    '| round | received | first | median client | last client |',
    '|---|---|---|---|---|',
    ...f.rounds.map(
      (r, i) =>
        `| ${i + 1} | ${num(r.received)} | ${r.firstMs.toFixed(1)} ms | ${r.p50Ms.toFixed(1)} ms | ${r.lastMs.toFixed(1)} ms |`,
    ),
    '',
    `Publish -> last client: median ${f.medianLastMs.toFixed(1)} ms, worst ${f.maxLastMs.toFixed(1)} ms (target < ${WS_FANOUT_TARGET_MS} ms); API peak RSS with all clients connected ${mb(f.peakRssMb)} (target < 300 MB): ${v.pass ? 'PASS' : `**FAIL** (${v.misses.join('; ')})`}.`,
  ];
}

function sseFanoutSection(f: SseFanoutRecord): string[] {
  return [
    '',
    `Live feed \`GET /transactionsmainnet/stream\` fan-out (\`sse-fanout\`): ${num(f.connected)} of ${num(f.requested)} streams open in ${f.connectSeconds.toFixed(1)} s; then ${f.rounds} records were inserted one at a time (autocommit) into PostgreSQL, each timed from the INSERT sent to the last stream's event (commit acknowledged after ${f.p50CommitMs.toFixed(1)} ms, median; first stream ${f.p50FirstMs.toFixed(1)} ms, median).`,
    '',
    ...(f.via === 'redis'
      ? [
          'The streams were on a follower API replica: the leader replica LISTENed, read the change log and published each change through Redis, and the follower wrote it to its streams.',
          '',
        ]
      : []),
    `Insert -> last of ${num(f.connected)} streams: p50 ${f.p50LastMs.toFixed(1)} ms, p99 ${f.p99LastMs.toFixed(1)} ms, worst ${f.maxLastMs.toFixed(1)} ms; API peak RSS with the streams open ${mb(f.peakRssMb)}.`,
  ];
}

function pointsJobSection(p: PointsJobRecord): string[] {
  const tenth = Math.max(1, Math.floor(p.changed / 10));
  const runs = (xs: readonly number[]) => xs.map((x) => `${x.toFixed(2)} s`).join(', ');
  return [
    '',
    `Points and rank job (\`points-job\`, \`apps/monitoring-api\` \`dist/bin/rank-job.js\` as a process, on a database of its own): ${num(p.transfers)} transfer records from ${num(p.wallets)} senders, inserted in ${p.seedSeconds.toFixed(0)} s; measured ${p.measuredAt}, load average at start ${p.loadAtStart}.`,
    '',
    '| points job step | changed records | wall time (median) | runs |',
    '|---|---|---|---|',
    `| full rebuild (\`--rebuild\`) | all | ${median(p.rebuildSeconds).toFixed(2)} s | ${runs(p.rebuildSeconds)} (first run, no rule stored: ${p.firstRunSeconds.toFixed(2)} s) |`,
    `| incremental step | ${num(p.changed)} new (half from new senders), ${num(tenth)} deleted by a reorg, ${num(tenth)} rewritten | ${median(p.incrementalSeconds).toFixed(2)} s | ${runs(p.incrementalSeconds)} |`,
    `| idle run | 0 | ${p.idleSeconds.toFixed(2)} s | one run |`,
  ];
}

/** The section of one dataset size. */
export function runSection(run: RunRecord, reference: RunRecord | undefined): string[] {
  const hello = run.pairedHelloSeconds
    ? `${helloRange(run.helloRps)} req/s over the run (${run.helloRps.length} measurements: start, one before each workload${run.rounds && run.rounds > 1 ? ` in each of ${run.rounds} rounds` : ''}, end); a workload's hello-world is the mean of the ${run.pairedHelloSeconds} s ones measured just before and just after it, the hello-world row the mean of all`
    : `${run.helloRps.map(num).join(' / ')} req/s (start / end of the run; ratios use their mean)`;
  return [
    `## ${num(run.transactions)} transactions, ${num(run.users)} users`,
    '',
    `- Date: ${run.date}`,
    `- Machine: ${machineText(run.machine)}`,
    `- Dataset: ${num(run.transactions)} transactions (${run.mainnetRows === undefined ? 'n/a' : num(run.mainnetRows)} mainnet), ${num(run.users)} users${run.seedSeconds === undefined ? '' : `; loaded in ${run.seedSeconds.toFixed(0)} s`}`,
    `- Hello-world (Express 5, 100 connections): ${hello}`,
    ...(run.note ? [`- Note: ${run.note}`] : []),
    '',
    ...workloadTable(run, reference),
    ...subsetNotes(run),
    ...(comparesWith(run, reference)
      ? [
          '',
          `The last column compares each feed and stats workload with the ${num(reference.transactions)}-row run: req/s and p99 as measured, then against hello-world (the throughput factor of the ratios to hello-world, and the p99 in units of the paired hello-world's time per request). The ${SCALING_FACTOR_TARGET}x target is judged on the second pair, which a host that changed speed between the runs does not move.`,
        ]
      : []),
    ...cpuTable(run),
    ...(run.fanout ? fanoutSection(run.fanout) : []),
    ...(run.sseFanout ? sseFanoutSection(run.sseFanout) : []),
    ...(run.pointsJob ? pointsJobSection(run.pointsJob) : []),
    '',
  ];
}

/** The workloads table: every workload of workloads.ts and the fan-out, what it requests, its target. */
function workloadsSection(records: readonly RunRecord[]): string[] {
  // A stored record's description carries the counts of the parameters it ran with.
  const described = new Map<string, string>();
  for (const run of records) for (const w of run.workloads) described.set(w.name, w.description);
  const row = (w: HttpWorkload) =>
    `| \`${w.name}\` | ${w.connections} | ${described.get(w.name) ?? w.description} | ${w.group === 'baseline' ? 'baseline' : targetText(w)} |`;
  return [
    '## Workloads',
    '',
    '| Workload | Conn | What it requests | Target |',
    '|---|---|---|---|',
    ...httpWorkloads(PLACEHOLDER_PARAMS)
      .sort((a, b) => order(a) - order(b))
      .map(row),
    `| \`ws-fanout\` | 5,000 | WebSocket \`/subscribe\` clients; the update the gas quote API sends them is published on its Redis channel, and timed to the last client | publish -> last client < ${WS_FANOUT_TARGET_MS} ms, RSS < 300 MB |`,
    '| `points-job` | - | the points and rank job as a process over `--transactions` transfer records from `--users` senders on a database of its own: 3 `--rebuild` runs, 3 incremental steps after 1,000 new records, a reorg deleting 100 and 100 status rewrites | reported (wall time per run) |',
    '| `sse-fanout` | 1,000 | live-feed streams (`/transactionsmainnet/stream?domain=6`) on a fresh database; one record inserted per round, timed from the INSERT to the last stream | p50 / p99 reported |',
    '',
    `Feed and stats workloads are also judged at 10x the rows: within ${SCALING_FACTOR_TARGET}x of the ${num(REFERENCE_TRANSACTIONS)}-row figures, host speed taken out (the last column of the 10M table).`,
    '',
  ];
}

/**
 * The whole BENCHMARKS.md: how to run, the workloads, the latest run of each dataset size, and
 * the indexer's latest rows (`pnpm bench:indexer`).
 */
export function renderReport(records: RunRecord[], indexer: IndexerRecord): string {
  const reference = records.find((r) => r.transactions === REFERENCE_TRANSACTIONS);
  return [
    '# Benchmarks',
    '',
    'Generated by `pnpm bench` from the latest run of each dataset size (`packages/bench/results/`).',
    'What each figure is made of, and why: `packages/bench/FINDINGS.md`. The harness and its tools:',
    '`packages/bench/README.md`.',
    '',
    '## How to run',
    '',
    '```sh',
    'pnpm bench                                  # 1M transactions, 100k users, 3 rounds of 10 s per workload',
    'pnpm bench --transactions 10000000          # 10M rows',
    'pnpm bench --only "feed|stats" --duration 5 # a subset (a workload brings its baseline)',
    'pnpm bench --skip-seed --skip-build         # reuse the loaded database and the current builds',
    'pnpm bench --render-only                    # rewrite this file from packages/bench/results/',
    '```',
    '',
    "A run builds the apps, loads the dataset into PostgreSQL with the monitoring API's seeder",
    '(database `BENCH_DATABASE`, default `ctss_bench`; reloaded only when the size or the built',
    'migrations and seeder change), and starts each API and each baseline as its own `node` process',
    'on the real PostgreSQL and Redis. autocannon drives them from the same machine. Every HTTP',
    'workload runs in `--rounds` rounds (default 3) on freshly started APIs, each measurement after',
    "a 1 s warm-up and a 5 s hello-world; a row is the workload's median round by ratio, with the",
    "largest peak RSS (VmRSS and VmHWM of the API process) and every round's failures. A ratio is",
    'req/s over the mean of the hello-worlds just before and just after, or, for the time-window',
    'walks, over the same-bytes baseline measured just before them. A response with another status',
    'than expected (any 2xx, or 304 for the `-304` row) or a socket error marks the row invalid.',
    'A subset run (`--only`) adds its rows to the table of the last full run of its size, each',
    'marked `[n]` with a note under the table saying when and on what host it was measured; the',
    "section's date, machine, hello-world and baseline rows stay the full run's.",
    '',
    'The APIs run with `NODE_ENV=production`, `LOG_LEVEL=warn`, the rate limit raised to',
    '1,000,000/min (still counted in Redis on every request) and no per-connection request cap or',
    'connection caps (`HTTP_MAX_REQUESTS_PER_CONNECTION=0`, `HTTP_MAX_CONNECTIONS*=1000000`: the',
    'load generator is one address, and the fan-out holds 5,000 connections); the monitoring API with',
    '`CACHE_TTL_SECONDS=0` and `FEED_FIRST_PAGE_CACHE_SECONDS=0`: nothing is stored, though',
    'identical requests in flight share one query (single-flight, docs/architecture.md "Caching"),',
    'except for `feed-first-page-304`, measured on a monitoring API of its own with the first-page',
    'cache as deployed (`FEED_FIRST_PAGE_CACHE_SECONDS=5`, a poller is answered from memory within',
    "the page's `max-age`). Responses are uncompressed: the load generator",
    'sends no `Accept-Encoding` except in `feed-time-window-gzip` (`gzip`), and no validator except in',
    '`feed-first-page-304` (`If-None-Match`).',
    '',
    ...workloadsSection(records),
    ...records.flatMap((r) => runSection(r, reference)),
    ...indexerSection(indexer),
  ].join('\n');
}
