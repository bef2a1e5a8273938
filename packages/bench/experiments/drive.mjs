// Drives an API that is already running (started by hand, e.g. with --trace-gc or --cpu-prof) with
// one of the suite's workloads on the benchmark database's parameters, and prints its figures.
// Usage: node experiments/drive.mjs <baseUrl> <workload> <seconds>
//   (after `pnpm --filter @ctss/bench build`; DATABASE_URL of the benchmark database, default
//   postgres://postgres@127.0.0.1:5432/ctss_bench)
import { pickParams } from '../dist/dataset.js';
import { runLoad } from '../dist/load.js';
import { httpWorkloads } from '../dist/workloads.js';

const [baseUrl, name, seconds = '10'] = process.argv.slice(2);
const params = await pickParams(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ctss_bench',
);
const w = httpWorkloads(params).find((x) => x.name === name);
if (!w) throw new Error(`no workload ${name}`);
const r = await runLoad({
  baseUrl,
  plan: w.plan,
  connections: w.connections,
  durationSeconds: Number(seconds),
  warmupSeconds: 1,
});
console.log(
  `${name}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`,
);
