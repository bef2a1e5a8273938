// Measures what each layer of the shared HTTP stack costs: req/s at 100 connections as layers are
// added in createHttpApp's order. Usage: node experiments/stack-ablation.mjs [seconds]
// (run `pnpm --filter @ctss/bench build` first; needs packages/server-kit built, Redis at REDIS_URL).
import { freePort, startNode, waitForHttp } from '../dist/child.js';
import { runLoad } from '../dist/load.js';
const seconds = Number(process.argv[2] ?? '5');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const names = ['express only', '+ helmet', '+ cors', '+ pino-http (level warn)', '+ metrics', '+ rate limit (Redis)', '+ json parser (= createHttpApp)'];
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined;
const variants = [
  ...names.map((name, depth) => ({ name, env: { STACK_DEPTH: String(depth), REDIS_URL: redisUrl } })),
  { name: 'createHttpApp, rate limit in memory', env: { STACK_DEPTH: '6' } },
  { name: 'createHttpApp + etag off', env: { STACK_DEPTH: '6', REDIS_URL: redisUrl, ETAG: 'false' } },
  { name: 'createHttpApp, pino-http quietReqLogger', env: { STACK_DEPTH: '6', REDIS_URL: redisUrl, PINO_HTTP: 'quiet' } },
  { name: 'createHttpApp without pino-http', env: { STACK_DEPTH: '6', REDIS_URL: redisUrl, PINO_HTTP: 'off' } },
  { name: 'createHttpApp without pino-http, rate limit', env: { STACK_DEPTH: '6', PINO_HTTP: 'off', RATE_LIMIT: 'off' } },
  { name: 'express only, 10-record page via sendJson', env: { STACK_DEPTH: '0', BODY: 'feed' } },
  { name: 'createHttpApp, 10-record page via sendJson', env: { STACK_DEPTH: '6', REDIS_URL: redisUrl, BODY: 'feed' } },
];
let base;
for (const v of variants.filter((x, i) => i === 0 || !only || only.test(x.name))) {
  const port = await freePort();
  const child = await startNode({ name: 'stack', script: new URL('./stack-server.mjs', import.meta.url).pathname, cwd: process.cwd(), env: { ...v.env, PORT: String(port), NODE_ENV: 'production' } });
  await waitForHttp(child, `http://127.0.0.1:${port}/`);
  const r = await runLoad({ baseUrl: `http://127.0.0.1:${port}`, plan: { kind: 'paths', paths: ['/'] }, connections: 100, durationSeconds: seconds, warmupSeconds: 1 });
  base ??= r.rps;
  console.log(`${v.name.padEnd(46)} ${String(Math.round(r.rps)).padStart(6)} req/s  ${(r.rps / base).toFixed(2)}x  p50 ${r.p50} ms  p99 ${r.p99} ms${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`);
  await child.stop();
}
