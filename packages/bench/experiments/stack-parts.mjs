// What each part of the shared HTTP stack costs on this host: the server's CPU per request of a
// hello-world with every part of createHttpApp's chain, with none, and with one part left out in
// turn (or the rate limit kept in memory), at 100 connections. Each measurement starts a fresh
// server process (a process pair can differ by 15-25 % for its whole life: FINDINGS 1h), the
// variants run in alternating order, and the medians over the rounds are printed last.
// Usage: node experiments/stack-parts.mjs [seconds] [rounds]   (after `pnpm --filter @ctss/bench
// build`; needs packages/server-kit built and Redis at REDIS_URL, default redis://127.0.0.1:6379)
import { measureStack } from './stack-run.mjs';
const seconds = Number(process.argv[2] ?? '4');
const rounds = Number(process.argv[3] ?? '5');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const all = ['helmet', 'cors', 'log', 'metrics', 'rl'];
const variants = [
  ['none', []],
  ['all', all],
  ...all.map((part) => [`all but ${part}`, all.filter((p) => p !== part)]),
  ['rate limit in memory', [...all.filter((p) => p !== 'rl'), 'rlmem']],
];
const perVariant = new Map();
for (let round = 1; round <= rounds; round++) {
  for (const [name, parts] of round % 2 ? variants : [...variants].reverse()) {
    const env = { STACK: 'parts', PARTS: parts.join(','), REDIS_URL: redisUrl };
    const { result, cpu } = await measureStack({ env }, { connections: 100, seconds });
    perVariant.set(name, [...(perVariant.get(name) ?? []), cpu?.apiUs ?? NaN]);
    console.log(
      `round ${round}  ${name.padEnd(22)} ${String(Math.round(result.rps)).padStart(6)} req/s  server ${cpu?.apiUs} us`,
    );
  }
}
for (const [name, values] of perVariant) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(22)} median ${sorted[Math.floor(sorted.length / 2)]} us of server CPU per request (${values.join(', ')})`,
  );
}
