// A/B of two builds of the gas quote API (two dist/ directories under apps/gas-quote-api, e.g. a
// copy of the last build and the new one): `pairs` times, starts both side by side with the
// suite's environment, measures each of the suite's gas workloads (the quote rotations, or those
// matching the regular expression) once on each, in alternating order, and stops both. Prints
// req/s and the server's CPU per request (from /proc, as the suite accounts it) per measurement,
// then per workload the median over the pairs of B's CPU per request over A's.
// Fresh processes per pair: one process of a pair can run 15-25 % slower than the other for its
// whole life, with the same code (FINDINGS 1h), so one pair of processes is not an A/B.
// A variant is `<dist>` or `<dist>@<node flags>` (the same build with other flags, e.g.
// `dist@--max-semi-space-size=32`).
// Usage: node experiments/ab-gas.mjs <seconds> <pairs> <variantA> <variantB> [workload-regexp]
//   (after `pnpm --filter @ctss/bench build` and the builds; Redis at REDIS_URL)
import { accountCpu } from '../dist/cpu.js';
import { runLoad } from '../dist/load.js';
import { startGasQuoteApi } from '../dist/services.js';
import { httpWorkloads, PLACEHOLDER_PARAMS } from '../dist/workloads.js';

const [secondsArg, pairsArg, variantA, variantB, only = '^quote-'] = process.argv.slice(2);
if (!variantB)
  throw new Error('usage: ab-gas.mjs <seconds> <pairs> <variantA> <variantB> [workload-regexp]');
const workloads = httpWorkloads(PLACEHOLDER_PARAMS).filter(
  (w) => w.service === 'gas' && new RegExp(only).test(w.name),
);

/** Starts a variant as the suite starts the gas quote API. */
async function start(variant) {
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
  return { name: variant, ...service };
}

const ratios = new Map(workloads.map((w) => [w.name, []]));
for (let pair = 1; pair <= Number(pairsArg); pair++) {
  const a = await start(variantA);
  const b = await start(variantB);
  try {
    for (const w of workloads) {
      const cpuOf = {};
      for (const v of pair % 2 ? [a, b] : [b, a]) {
        let account;
        const r = await runLoad({
          baseUrl: v.baseUrl,
          plan: w.plan,
          connections: w.connections,
          durationSeconds: Number(secondsArg),
          warmupSeconds: 1,
          beforeMeasure: async () => {
            account = await accountCpu(v.child.pid);
          },
        });
        const cpu = await account.stop(r.total);
        cpuOf[v.name] = cpu?.apiUs ?? NaN;
        console.log(
          `pair ${pair} ${w.name.padEnd(14)} ${v.name.padEnd(8)} ${String(Math.round(r.rps)).padStart(6)} req/s  p99 ${r.p99} ms  server ${cpu?.apiUs} us  load generator ${cpu?.loadGeneratorUs} us${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`,
        );
      }
      ratios.get(w.name).push(cpuOf[variantB] / cpuOf[variantA]);
    }
  } finally {
    await a.child.stop();
    await b.child.stop();
  }
}
for (const [name, values] of ratios) {
  const sorted = [...values].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `${name}: ${variantB} / ${variantA} CPU per request, median ${median.toFixed(3)} over ${values.length} pairs, lower in ${values.filter((x) => x < 1).length} (${sorted.map((x) => x.toFixed(2)).join(' ')})`,
  );
}
