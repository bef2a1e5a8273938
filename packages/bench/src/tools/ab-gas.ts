/**
 * `pnpm --filter @ctss/bench ab-gas <seconds> <pairs> <variantA> <variantB> [workload-regexp]`:
 * A/B of two builds of the gas quote API (two build directories under apps/gas-quote-api, e.g. a
 * copy of the last build and the new one; packages/bench/README.md "Tools"). For each of `pairs`
 * pairs it starts both builds side by side with the suite's environment, measures each of the
 * suite's gas workloads (default the quote rotations) once on each, in alternating order, and
 * stops both. Prints req/s and the server's CPU per request (from /proc, as the suite accounts it)
 * and peak RSS per measurement (usage.ts, as the suite measures), then per workload the median over the pairs of B's CPU per request over A's.
 * Fresh processes per pair: one process of a pair can run 15-25 % slower than the other for its
 * whole life with the same code (FINDINGS.md "Reading the figures"), so one pair is not an A/B.
 * A variant is `<dir>` or `<dir>@<node flags>` (the same build with other flags, e.g.
 * `dist@--max-semi-space-size=32`). Redis at REDIS_URL (default the local one).
 */
import { median } from '../median.js';
import { startGasQuoteApi, type RunningService } from '../services.js';
import { loadWithUsage } from '../usage.js';
import { httpWorkloads, PLACEHOLDER_PARAMS } from '../workloads.js';

const USAGE = 'usage: ab-gas <seconds> <pairs> <variantA> <variantB> [workload-regexp]';

/** Starts a variant (`dir` or `dir@flags`) as the suite starts the gas quote API. */
async function start(variant: string): Promise<RunningService & { variant: string }> {
  const [dir, flags = ''] = variant.split('@');
  const service = await startGasQuoteApi(
    {
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      redisPrefix: `ab-${process.pid}-${variant}:`,
      cpuProf: false,
      extraEnv: {},
    },
    { dir, nodeFlags: flags.split(' ').filter(Boolean) },
  );
  return { ...service, variant };
}

async function main(): Promise<void> {
  const [secondsArg, pairsArg, variantA, variantB, only = '^quote-'] = process.argv.slice(2);
  const seconds = Number(secondsArg);
  const pairs = Number(pairsArg);
  if (!variantA || !variantB || !(seconds > 0) || !(pairs > 0)) throw new Error(USAGE);
  const workloads = httpWorkloads(PLACEHOLDER_PARAMS).filter(
    (w) => w.service === 'gas' && new RegExp(only).test(w.name),
  );
  if (workloads.length === 0) throw new Error(`no gas workload matches ${only}`);
  const ratios = new Map<string, number[]>(workloads.map((w) => [w.name, []]));
  for (let pair = 1; pair <= pairs; pair++) {
    const a = await start(variantA);
    const b = await start(variantB);
    try {
      for (const w of workloads) {
        const cpuOf = new Map<string, number>();
        for (const v of pair % 2 ? [a, b] : [b, a]) {
          const { r, cpu, peakRssMb } = await loadWithUsage(v, w.plan, w.connections, seconds, 1);
          cpuOf.set(v.variant, cpu?.apiUs ?? NaN);
          console.log(
            `pair ${pair} ${w.name.padEnd(14)} ${v.variant.padEnd(8)} ${String(Math.round(r.rps)).padStart(6)} req/s  p99 ${r.p99} ms  server ${cpu?.apiUs} us  load generator ${cpu?.loadGeneratorUs} us  peak RSS ${peakRssMb} MB${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`,
          );
        }
        ratios.get(w.name)!.push(cpuOf.get(variantB)! / cpuOf.get(variantA)!);
      }
    } finally {
      await a.child.stop();
      await b.child.stop();
    }
  }
  for (const [name, values] of ratios) {
    const sorted = [...values].sort((x, y) => x - y);
    console.log(
      `${name}: ${variantB} / ${variantA} CPU per request, median ${median(values).toFixed(3)} over ${values.length} pairs, lower in ${values.filter((x) => x < 1).length} (${sorted.map((x) => x.toFixed(2)).join(' ')})`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
