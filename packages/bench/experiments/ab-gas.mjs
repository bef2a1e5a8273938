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
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { accountCpu } from '../dist/cpu.js';
import { freePort, startNode, waitForHttp } from '../dist/child.js';
import { runLoad } from '../dist/load.js';
import { GAS_APP_DIR } from '../dist/paths.js';
import { httpWorkloads } from '../dist/workloads.js';

const [secondsArg, pairsArg, variantA, variantB, only = '^quote-'] = process.argv.slice(2);
if (!variantB)
  throw new Error('usage: ab-gas.mjs <seconds> <pairs> <variantA> <variantB> [workload-regexp]');
// The gas workloads take no database parameters.
const noParams = { deepCursors: [], senders: [], lookups: [], windows: [[0, 1]], searches: [] };
const workloads = httpWorkloads(noParams).filter(
  (w) => w.service === 'gas' && new RegExp(only).test(w.name),
);
const keys = {
  SIGNER_ECDSA_PRIVATE_KEY: randomBytes(32).toString('hex'),
  SIGNER_ED25519_PRIVATE_KEY: randomBytes(32).toString('hex'),
};

/** Starts a variant as services.ts starts the gas quote API for the suite. */
async function start(variant) {
  const [dist, flags = ''] = variant.split('@');
  const port = await freePort();
  const child = await startNode({
    name: `ab-gas-${port}`,
    script: path.join(GAS_APP_DIR, dist, 'main.js'),
    nodeFlags: flags.split(' ').filter(Boolean),
    cwd: GAS_APP_DIR,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `ab-${port}:gas:`,
      RATE_LIMIT_PER_MINUTE: '1000000',
      PRICE_SOURCE: 'snapshot',
      FEEDER_IN_PROCESS: 'true',
      FEEDER_INTERVAL_SECONDS: '3600',
      PRICE_MAX_AGE_SECONDS: '86400',
      ...keys,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${baseUrl}/tokenPrices`);
  return { name: variant, child, baseUrl };
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
