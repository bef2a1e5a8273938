/**
 * `pnpm --filter @ctss/bench redis-floor <seconds> <pairs> [node flags]`: what reading a kept
 * page from Redis costs by itself (packages/bench/README.md "Tools"). Each pair starts the
 * same-bytes server and the Redis-bytes server (hello-world.ts): the page of the last suite run
 * (bench-results/same-bytes-page.body, a full 100-record window page) sent from memory, and the
 * same bytes kept under {@link KEYS} keys (the closed-window walk's pages) and read back with
 * node-redis on every request, with nothing else done per request. Both are measured with the
 * suite's load (32 connections, as `feed-time-window-closed`), in alternating order; the
 * Redis-bytes server runs with the monitoring API's node flags (the chart's `command`) unless
 * the `node flags` argument (one argument, `-` for none) names others, so its figure is the
 * ceiling of the API's kept-page path under the same heap settings. Prints req/s, server CPU per
 * request (from /proc, as the suite accounts it) and peak RSS per measurement, then the median
 * ratio of the Redis-bytes server's req/s to the same-bytes server's. Redis at REDIS_URL (default
 * the local one); the keys expire after an hour and are deleted at the end.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from 'redis';
import { median } from '../median.js';
import { RUN_DIR } from '../paths.js';
import { nodeFlagsArgument, startHelloWorld, type RunningService } from '../services.js';
import { loadWithUsage } from '../usage.js';

const USAGE = "usage: redis-floor <seconds> <pairs> ['<node flags>' | -]";

/** Keys the page is kept under: the closed-window walk's 2,000 pages. */
const KEYS = 2_000;

/** Connections of the load, as the window workloads. */
const CONNECTIONS = 32;

/** Unmeasured seconds before each measurement. */
const WARMUP_SECONDS = 2;

/** One measurement: req/s, the server's CPU per request (us) and its peak RSS (MiB). */
interface Figures {
  readonly rps: number;
  readonly cpuUs: number;
  readonly peakMb: number;
}

/** Loads `service` with `paths` in rotation and returns its figures. */
async function measure(
  service: RunningService,
  paths: readonly string[],
  seconds: number,
): Promise<Figures> {
  const { r, cpu, peakRssMb } = await loadWithUsage(
    service,
    { kind: 'paths', paths },
    CONNECTIONS,
    seconds,
    WARMUP_SECONDS,
  );
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${service.child.name}: failed responses`);
  return { rps: r.rps, cpuUs: cpu?.apiUs ?? NaN, peakMb: peakRssMb ?? NaN };
}

async function main(): Promise<void> {
  const [secondsArg, pairsArg, flagsArg] = process.argv.slice(2);
  const seconds = Number(secondsArg);
  const pairs = Number(pairsArg);
  if (!(seconds > 0) || !(pairs > 0)) throw new Error(USAGE);
  const nodeFlags = nodeFlagsArgument(flagsArg);
  const bodyFile = path.join(RUN_DIR, 'same-bytes-page.body');
  const body = await readFile(bodyFile).catch(() => {
    throw new Error(`${bodyFile} is missing: run pnpm bench --only '^same-bytes' first`);
  });
  const page = { body, contentType: 'application/json; charset=utf-8', full: true };
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const keyPrefix = `bench:redis-floor:${process.pid}:`;
  // Every key in turn, in a stride order (no two neighbours alike), as the walk's replay.
  const redisPaths = Array.from({ length: KEYS }, (_, i) => `/${(i * 7919) % KEYS}`);
  console.log(`page ${body.length} bytes; Redis-bytes node flags: ${nodeFlags.join(' ')}`);
  const ratios: number[] = [];
  try {
    for (let pair = 1; pair <= pairs; pair++) {
      const memory = await startHelloWorld(page);
      const redis = await startHelloWorld(page, {
        redisUrl,
        keyPrefix,
        keys: KEYS,
        nodeFlags,
      });
      try {
        const figures = new Map<RunningService, Figures>();
        for (const service of pair % 2 ? [memory, redis] : [redis, memory]) {
          const f = await measure(service, service === redis ? redisPaths : ['/'], seconds);
          figures.set(service, f);
          console.log(
            `pair ${pair} ${service.child.name.padEnd(11)} ${String(Math.round(f.rps)).padStart(6)} req/s  server ${Math.round(f.cpuUs)} us/request  peak RSS ${Math.round(f.peakMb)} MB`,
          );
        }
        ratios.push(figures.get(redis)!.rps / figures.get(memory)!.rps);
      } finally {
        await memory.child.stop();
        await redis.child.stop();
      }
    }
  } finally {
    const client = createClient({ url: redisUrl });
    await client.connect();
    for (let n = 0; n < KEYS; n += 500) {
      const batch = Array.from({ length: Math.min(500, KEYS - n) }, (_, i) => keyPrefix + (n + i));
      await client.del(batch);
    }
    await client.close();
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(
    `Redis-bytes / same-bytes req/s: median ${median(ratios).toFixed(2)} over ${ratios.length} pairs (${sorted.map((x) => x.toFixed(2)).join(' ')})`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
