// The floor of a feed page's size: req/s and CPU per request of an Express 5 server that sends
// one fixed JSON text (read once from a file, e.g. a saved 100-record time-window page of 72 KB)
// at 32 connections, bare and inside @ctss/server-kit's createHttpApp, against the hello-world at
// 100 connections measured in the same round. An endpoint that sends as many bytes per request
// through the same stack cannot beat the fixed text's ratio on the same host: the difference is
// the endpoint's own work (its query, receiving the rows, the garbage of both).
// Usage: node experiments/page-floor.mjs <seconds> <rounds> <body-file>...
//   (after `pnpm --filter @ctss/bench build`; needs packages/server-kit built and Redis at
//   REDIS_URL, default redis://127.0.0.1:6379)
import { basename } from 'node:path';
import { measureStack } from './stack-run.mjs';
const [secondsArg, roundsArg, ...bodyFiles] = process.argv.slice(2);
if (bodyFiles.length === 0)
  throw new Error('usage: page-floor.mjs <seconds> <rounds> <body-file>...');
const seconds = Number(secondsArg);
const rounds = Number(roundsArg);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const variants = [
  { name: 'express alone, hello, 100 conn', connections: 100, env: { STACK: 'express' } },
  { name: 'express alone, hello, 32 conn', connections: 32, env: { STACK: 'express' } },
  ...bodyFiles.flatMap((file) => [
    {
      name: `express alone, ${basename(file)}, 32 conn`,
      connections: 32,
      env: { STACK: 'express', BODY_FILE: file },
    },
    {
      name: `createHttpApp, ${basename(file)}, 32 conn`,
      connections: 32,
      env: { STACK: 'kit', REDIS_URL: redisUrl, BODY_FILE: file },
    },
  ]),
];
for (let round = 1; round <= rounds; round++) {
  let base;
  for (const v of variants) {
    const { result: r, cpu: used } = await measureStack(v, { connections: v.connections, seconds });
    base ??= r.rps;
    console.log(
      `round ${round}  ${v.name.padEnd(44)} ${String(Math.round(r.rps)).padStart(6)} req/s  ${(r.rps / base).toFixed(2)}x  p50 ${r.p50} ms  p99 ${r.p99} ms  server ${used?.apiUs} us  load generator ${used?.loadGeneratorUs} us  busy ${Math.round((used?.machineBusy ?? 0) * 100)} %${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`,
    );
  }
}
