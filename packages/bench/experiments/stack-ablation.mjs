// What the shared HTTP stack costs: req/s at 100 connections of a hello-world (and a 10-record
// page through sendJson) bare and inside @ctss/server-kit's createHttpApp (helmet, cors, request
// log, metrics, rate limit in Redis or in memory, JSON body parser).
// Usage: node experiments/stack-ablation.mjs [seconds]   (after `pnpm --filter @ctss/bench build`;
// needs packages/server-kit built and Redis at REDIS_URL, default redis://127.0.0.1:6379)
import { freePort, startNode, waitForHttp } from '../dist/child.js';
import { runLoad } from '../dist/load.js';
const seconds = Number(process.argv[2] ?? '5');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const variants = [
  { name: 'express alone, hello', env: { STACK: 'express' } },
  { name: 'createHttpApp, hello, rate limit in Redis', env: { STACK: 'kit', REDIS_URL: redisUrl } },
  { name: 'createHttpApp, hello, rate limit in memory', env: { STACK: 'kit' } },
  { name: 'express alone, 10-record page (sendJson)', env: { STACK: 'express', BODY: 'feed' } },
  {
    name: 'createHttpApp, 10-record page (sendJson)',
    env: { STACK: 'kit', REDIS_URL: redisUrl, BODY: 'feed' },
  },
];
let base;
for (const v of variants) {
  const port = await freePort();
  const child = await startNode({
    name: 'stack',
    script: new URL('./stack-server.mjs', import.meta.url).pathname,
    cwd: process.cwd(),
    env: { ...v.env, PORT: String(port), NODE_ENV: 'production' },
  });
  await waitForHttp(child, `http://127.0.0.1:${port}/`);
  const r = await runLoad({
    baseUrl: `http://127.0.0.1:${port}`,
    plan: { kind: 'paths', paths: ['/'] },
    connections: 100,
    durationSeconds: seconds,
    warmupSeconds: 1,
  });
  base ??= r.rps;
  console.log(
    `${v.name.padEnd(44)} ${String(Math.round(r.rps)).padStart(6)} req/s  ${(r.rps / base).toFixed(2)}x  p50 ${r.p50} ms  p99 ${r.p99} ms${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`,
  );
  await child.stop();
}
