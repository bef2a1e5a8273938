/**
 * Renders BENCHMARKS.md from the stored results (every dataset size) plus the hand-written
 * findings in packages/bench/FINDINGS.md, and the plain table printed at the end of a run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_DIR } from './paths.js';
import type { FanoutRecord, RunRecord, WorkloadRecord } from './results.js';
import {
  REFERENCE_TRANSACTIONS,
  SCALING_FACTOR_TARGET,
  TARGETS,
  WORKLOAD_ORDER,
  WS_FANOUT_TARGET_MS,
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
 * Checks `w` against the targets of its group, and its validity: every response with the expected
 * status (any 2xx, or `expectStatus`) and no socket errors.
 */
export function judge(w: WorkloadRecord): Verdict {
  const t = TARGETS[w.group];
  const misses: string[] = [];
  const unexpected = unexpectedResponses(w);
  if (unexpected > 0 || w.errors > 0)
    misses.push(
      `invalid: ${unexpected} ${w.expectStatus === undefined ? 'non-2xx' : `not ${w.expectStatus}`} (${JSON.stringify(w.statuses)}), ${w.errors} errors`,
    );
  if (t.minRatio !== undefined && w.ratio < t.minRatio)
    misses.push(`ratio ${w.ratio.toFixed(2)} < ${t.minRatio}`);
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

function targetText(w: WorkloadRecord): string {
  const t = TARGETS[w.group];
  const parts: string[] = [];
  if (t.minRatio !== undefined) parts.push(`>= ${t.minRatio.toFixed(2)}x`);
  if (t.maxP99 !== undefined) parts.push(`p99 < ${t.maxP99} ms`);
  if (t.maxRssMb !== undefined) parts.push(`RSS < ${t.maxRssMb} MB`);
  return parts.length ? parts.join(', ') : 'baseline';
}

const order = (w: WorkloadRecord) => {
  const i = WORKLOAD_ORDER.indexOf(w.name);
  return i < 0 ? WORKLOAD_ORDER.length : i;
};
const num = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${n} MB`);

/**
 * Scaling of a workload against the reference size. Shows req/s and p99 factors as measured, then
 * the same two factors with the host's speed taken out, which decide the 1.5x target: the
 * throughput factor of the ratios to hello-world (`ref.ratio / w.ratio`), and the p99 in units of
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
  const normalized = ref.ratio / w.ratio;
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

function workloadTable(run: RunRecord, reference: RunRecord | undefined): string[] {
  const withScaling = comparesWith(run, reference);
  const head = [
    'Workload',
    'Conn',
    'req/s',
    'vs hello',
    'p50',
    'p99',
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
      `\`${w.name}\``,
      String(w.connections),
      num(w.rps),
      run.pairedHelloSeconds && w.group !== 'baseline'
        ? `${w.ratio.toFixed(2)}x (of ${num(w.helloRps)}${roundsText(w)})`
        : `${w.ratio.toFixed(2)}x`,
      `${w.p50} ms`,
      `${w.p99} ms`,
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
    'CPU time per request during the measured run, microseconds (from /proc; PostgreSQL and Redis are all their server processes; "other" is everything else on the machine, e.g. other users of it; "steal" is the share of the machine\'s time the hypervisor gave to other guests, counted in "machine busy", n/a in runs before it was measured):',
    '',
    '| Workload | API process | PostgreSQL | Redis | load generator | other | machine busy | steal |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((w) => {
      const c = w.cpu!;
      return `| \`${w.name}\` | ${c.apiUs} | ${c.postgresUs} | ${c.redisUs} | ${c.loadGeneratorUs} | ${c.otherUs} | ${Math.round(c.machineBusy * 100)} % | ${c.steal === undefined ? 'n/a' : `${Math.round(c.steal * 100)} %`} |`;
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

/** The section of one dataset size. */
export function runSection(run: RunRecord, reference: RunRecord | undefined): string[] {
  const m = run.machine;
  const hello = run.pairedHelloSeconds
    ? `${num(Math.min(...run.helloRps))}-${num(Math.max(...run.helloRps))} req/s over the run (${run.helloRps.length} measurements: start, one before each workload${run.rounds && run.rounds > 1 ? ` in each of ${run.rounds} rounds` : ''}, end); each workload's "vs hello" uses the mean of the ${run.pairedHelloSeconds} s hello-worlds measured just before and just after it, the hello-world row the mean of all`
    : `${run.helloRps.map(num).join(' / ')} req/s (start / end of the run; ratios use their mean)`;
  return [
    `## ${num(run.transactions)} transactions, ${num(run.users)} users`,
    '',
    `- Date: ${run.date}`,
    `- Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.kernel}, Node ${m.node}; load average at start ${m.loadAtStart}; open-files limit ${m.openFilesLimit ?? 'n/a'}`,
    `- Dataset: ${num(run.transactions)} transactions (${run.mainnetRows === undefined ? 'n/a' : num(run.mainnetRows)} mainnet), ${num(run.users)} users${run.seedSeconds === undefined ? '' : `; loaded in ${run.seedSeconds.toFixed(0)} s`}`,
    `- Hello-world (Express 5, 100 connections): ${hello}`,
    ...(run.note ? [`- Note: ${run.note}`] : []),
    '',
    ...workloadTable(run, reference),
    ...(comparesWith(run, reference)
      ? [
          '',
          `The last column compares each feed and stats workload with the ${num(reference.transactions)}-row run: req/s and p99 as measured, then against hello-world (the throughput factor of the ratios to hello-world, and the p99 in units of the paired hello-world's time per request). The ${SCALING_FACTOR_TARGET}x target is judged on the second pair, which a host that changed speed between the runs does not move.`,
        ]
      : []),
    ...cpuTable(run),
    ...(run.fanout ? fanoutSection(run.fanout) : []),
    '',
  ];
}

/** The whole BENCHMARKS.md. */
export async function renderReport(records: RunRecord[]): Promise<string> {
  const reference = records.find((r) => r.transactions === REFERENCE_TRANSACTIONS);
  let findings: string;
  try {
    findings = (await readFile(path.join(PACKAGE_DIR, 'FINDINGS.md'), 'utf8')).trim();
  } catch {
    findings = '## Findings\n\n(none recorded)';
  }
  return [
    '# Benchmarks',
    '',
    'Generated by `pnpm bench` (packages/bench; figures kept in `packages/bench/results/`, findings in',
    '`packages/bench/FINDINGS.md`). Each run builds the apps, loads the benchmark dataset into PostgreSQL',
    "(database `ctss_bench`, reloaded only when the size or the monitoring API's built migrations/seeder change), starts the",
    'Express 5 hello-world and each API as',
    'separate `node` processes against the real PostgreSQL and Redis, and drives them with autocannon from the',
    'same machine (the load generator shares the cores). Every HTTP workload gets a 1 s warm-up, then the measured',
    'duration; "vs hello" is its req/s over the hello-world req/s of the same run; peak RSS is the API process',
    'during that workload (VmRSS sampled every 100 ms and VmHWM reset at the start). A workload with any non-2xx',
    'response or socket error is marked invalid. Services run with `NODE_ENV=production`, `LOG_LEVEL=warn`,',
    'the rate limit raised to 1,000,000/min (still checked in Redis on every request) and, on the monitoring API,',
    '`CACHE_TTL_SECONDS=0`: no response is stored, but identical requests that arrive while one is being',
    'answered still share its query (single-flight, docs/architecture.md "Caching"), so a stats workload, one path at 32',
    'connections, runs fewer queries than requests (see the PostgreSQL column of the CPU table).',
    'A run measures every HTTP workload in several rounds (default 3), each on freshly started APIs; a',
    "workload's row is its median round by ratio (every round's ratio shown next to it), with the peak RSS of",
    'all rounds and the failures of all rounds.',
    '',
    '```sh',
    'pnpm bench                                  # 1M transactions, 100k users, 10 s per workload',
    'pnpm bench --transactions 10000000          # 10M rows',
    'pnpm bench --only "feed|stats" --duration 5 # a subset',
    'pnpm bench --skip-seed --skip-build         # reuse the loaded database and the current builds',
    '```',
    '',
    ...records.flatMap((r) => runSection(r, reference)),
    findings,
    '',
  ].join('\n');
}
