/**
 * Starting the processes under test with the benchmark configuration: production mode, warn-level
 * logs, per-client limits lifted (the rate limit still counted in Redis), the monitoring API's cache off, the gas
 * quote API on its bundled price snapshot with a feeder that publishes once at start (the
 * fan-out workload publishes the updates itself, so no periodic update lands mid-measurement).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { freePort, startNode, waitForHttp, type Child } from './child.js';
import type { CapturedPage } from './prepare.js';
import {
  GAS_APP_DIR,
  HELLO_WORLD_ENTRY,
  MONITORING_APP_DIR,
  MONITORING_CHART_VALUES,
  PACKAGE_DIR,
  RUN_DIR,
} from './paths.js';

/**
 * The per-client limits lifted for the load generator, one address standing for many clients
 * (docs/operations.md "Connection limits"): the rate limit raised (still counted in Redis on every
 * request), no cap on connections (per address or in all) and no `Connection: close` after a number of
 * requests (a reconnection every 1,000 requests per connection, and a 503 for a request already
 * sent on a connection at its limit, which autocannon counts as a failure; the baselines are
 * plain Express servers without either).
 */
const ONE_ADDRESS_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  HTTP_MAX_REQUESTS_PER_CONNECTION: '0',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000000',
  // The WebSocket fan-out holds 5,000 connections, above the process's soft cap of 4,096.
  HTTP_MAX_CONNECTIONS: '1000000',
  HTTP_HARD_MAX_CONNECTIONS: '1000000',
} as const;

/** A started service: its process and base URL. */
export interface RunningService {
  readonly child: Child;
  readonly baseUrl: string;
  readonly port: number;
}

/** Options common to the services. */
export interface ServiceOptions {
  readonly redisUrl: string;
  /** Key prefix unique to this run, so nothing collides with other users of the Redis server. */
  readonly redisPrefix: string;
  readonly cpuProf: boolean;
  /** Extra environment (experiments), applied last. */
  readonly extraEnv: Record<string, string>;
  /**
   * Node flags of the monitoring API in place of {@link MONITORING_NODE_FLAGS} (tools, e.g. a heap
   * snapshot signal or other V8 settings).
   */
  readonly nodeFlags?: readonly string[];
}

const profFlags = (cpuProf: boolean, name: string): string[] =>
  cpuProf
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.join(RUN_DIR, 'profiles')}`,
        `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
      ]
    : [];

/**
 * The Redis form of the same-bytes server (hello-world.ts): the page kept under `keys` keys
 * `<keyPrefix><n>` in the Redis at `redisUrl` and read back on every request, in a process
 * started with `nodeFlags`.
 */
export interface RedisBytesOptions {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly keys: number;
  readonly nodeFlags: readonly string[];
}

/**
 * Starts the Express 5 hello-world, or with `page` the same-bytes server sending that page's
 * bytes (written to bench-results/same-bytes-page.body for it to read once), or with `redis` as
 * well the Redis-bytes server reading them from Redis per request (`GET /<n>`).
 */
export async function startHelloWorld(
  page?: CapturedPage,
  redis?: RedisBytesOptions,
): Promise<RunningService> {
  const port = await freePort();
  let pageEnv: Record<string, string> = {};
  if (page) {
    await mkdir(RUN_DIR, { recursive: true });
    const file = path.join(RUN_DIR, 'same-bytes-page.body');
    await writeFile(file, page.body);
    pageEnv = { BODY_FILE: file, CONTENT_TYPE: page.contentType };
    if (redis) {
      pageEnv.REDIS_URL = redis.redisUrl;
      pageEnv.KEY_PREFIX = redis.keyPrefix;
      pageEnv.KEY_COUNT = String(redis.keys);
    }
  }
  const child = await startNode({
    name: redis ? 'redis-bytes' : page ? 'same-bytes' : 'hello-world',
    script: HELLO_WORLD_ENTRY,
    cwd: PACKAGE_DIR,
    nodeFlags: redis?.nodeFlags,
    env: { PORT: String(port), NODE_ENV: 'production', ...pageEnv },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${baseUrl}/${redis ? '0' : ''}`);
  return { child, baseUrl, port };
}

/** Which build of the gas quote API to start, and how (experiments comparing builds). */
export interface GasBuild {
  /** Build directory under apps/gas-quote-api (default `dist`). */
  readonly dir?: string;
  /** Extra node flags, after the profiler's. */
  readonly nodeFlags?: readonly string[];
}

/**
 * Starts apps/gas-quote-api (`<build.dir>/bin/main.js`) with an in-process snapshot feeder. Its log is
 * bench-results/gas-quote-api.log, or gas-quote-api-<port>.log for another build than `dist`.
 */
export async function startGasQuoteApi(
  opts: ServiceOptions,
  build: GasBuild = {},
): Promise<RunningService> {
  const port = await freePort();
  const dir = build.dir ?? 'dist';
  const child = await startNode({
    name: build.dir === undefined && !build.nodeFlags ? 'gas-quote-api' : `gas-quote-api-${port}`,
    script: path.join(GAS_APP_DIR, dir, 'bin', 'main.js'),
    cwd: GAS_APP_DIR,
    nodeFlags: [...profFlags(opts.cpuProf, 'gas-quote-api'), ...(build.nodeFlags ?? [])],
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_URL: opts.redisUrl,
      REDIS_PREFIX: `${opts.redisPrefix}gas:`,
      ...ONE_ADDRESS_LIMITS,
      // The fan-out opens thousands of WebSockets from this one address.
      WS_MAX_CONNECTIONS_PER_IP: '1000000',
      PRICE_SOURCE: 'snapshot',
      FEEDER_IN_PROCESS: 'true',
      FEEDER_INTERVAL_SECONDS: '3600',
      PRICE_MAX_AGE_SECONDS: '86400',
      SIGNER_ECDSA_PRIVATE_KEY: randomBytes(32).toString('hex'),
      SIGNER_ED25519_PRIVATE_KEY: randomBytes(32).toString('hex'),
      ...opts.extraEnv,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${baseUrl}/tokenPrices`);
  return { child, baseUrl, port };
}

/**
 * The node flags of a chart's `command` (`node`, its flags, then the script).
 *
 * @param file a chart's values.yaml.
 * @throws Error naming the file when `command` is not a list of strings starting with `node`.
 */
export function chartNodeFlags(file: string): string[] {
  const values = parseYaml(readFileSync(file, 'utf8')) as { command?: unknown } | null;
  const command = values?.command;
  if (
    !Array.isArray(command) ||
    command[0] !== 'node' ||
    !command.every((arg): arg is string => typeof arg === 'string')
  ) {
    throw new Error(`${file}: command must be a list of strings starting with node`);
  }
  return command.slice(1).filter((arg) => arg.startsWith('--'));
}

/**
 * Node flags of the monitoring API as deployed, read from the chart's `command` (docs/decisions.md
 * "D240. The monitoring API's heap limit follows its memory limit" and "D340. The monitoring API's
 * heap growth and young generation"), so the suite measures the memory and CPU of the process that
 * runs.
 */
export const MONITORING_NODE_FLAGS: readonly string[] = chartNodeFlags(MONITORING_CHART_VALUES);

/**
 * The node flags a tool's `node flags` argument names (README "Tools"): the monitoring API's
 * ({@link MONITORING_NODE_FLAGS}) when it is absent, none for `-`, else its space-separated flags.
 */
export function nodeFlagsArgument(arg: string | undefined): readonly string[] {
  return arg === undefined ? MONITORING_NODE_FLAGS : arg.split(' ').filter((f) => f !== '-' && f);
}

/**
 * Starts apps/monitoring-api (dist/bin/main.js) on the benchmark database with caching off (statistics
 * and first feed pages), unless `extraEnv` says otherwise.
 */
export async function startMonitoringApi(
  opts: ServiceOptions & { databaseUrl: string },
): Promise<RunningService> {
  const port = await freePort();
  const child = await startNode({
    name: 'monitoring-api',
    script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'main.js'),
    cwd: MONITORING_APP_DIR,
    nodeFlags: [
      ...profFlags(opts.cpuProf, 'monitoring-api'),
      ...(opts.nodeFlags ?? MONITORING_NODE_FLAGS),
    ],
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl,
      REDIS_PREFIX: `${opts.redisPrefix}monitoring:`,
      CACHE_TTL_SECONDS: '0',
      FEED_FIRST_PAGE_CACHE_SECONDS: '0',
      ...ONE_ADDRESS_LIMITS,
      ...opts.extraEnv,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${baseUrl}/health`);
  return { child, baseUrl, port };
}
