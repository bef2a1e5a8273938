// What the shared HTTP stack costs: req/s at 100 connections of a hello-world (and a 10-record
// page through sendJson) bare and inside @ctss/server-kit's createHttpApp (helmet, cors, request
// log, metrics, rate limit in Redis or in memory, JSON body parser).
// Usage: node experiments/stack-ablation.mjs [seconds]   (after `pnpm --filter @ctss/bench build`;
// needs packages/server-kit built and Redis at REDIS_URL, default redis://127.0.0.1:6379)
import { measureStack } from './stack-run.mjs';
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
  const { result: r } = await measureStack(v, { connections: 100, seconds });
  base ??= r.rps;
  console.log(
    `${v.name.padEnd(44)} ${String(Math.round(r.rps)).padStart(6)} req/s  ${(r.rps / base).toFixed(2)}x  p50 ${r.p50} ms  p99 ${r.p99} ms${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`,
  );
}
