/**
 * Scenario 6, Redis comes back empty (docs/operations.md "Redis comes back empty"): a gas quote
 * API and a price feeder of the scenario's own, both at their DEFAULT `PRICE_MAX_AGE_SECONDS`
 * (120 s) and `FEEDER_INTERVAL_SECONDS` (15 s), under a loop of quote requests while the suite's
 * Redis is (a) emptied with FLUSHALL, (b) SIGKILLed and started again without persistence, then
 * (c) the feeder is SIGKILLed and a new one started. Asserted: 0 failed quotes throughout; the
 * feeder writes the prices again within one interval after (a) and (b); the new feeder takes over
 * the dead one's lock and writes within one interval of the kill.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { keepAliveAgent, type RequestSpec, type Sample } from '../http.js';
import { runLoop, stopSwitch } from '../load.js';
import { answersOk, spawnNode, waitUntil, type Child } from '../processes.js';
import { REDIS_URL, killRedis, startRedis } from '../redis.js';
import { check, figure, outcomes, summarize } from '../report.js';
import {
  PORTS,
  REDIS_PASSWORD,
  SIGNER_ECDSA_PRIVATE_KEY,
  SIGNER_ED25519_SEED_HEX,
} from '../settings.js';
import { upstreamEnv } from '../upstream.js';
import { cycle } from '../workload.js';

const NAME = '6 redis empty';
/** The feeder's default refresh interval (apps/gas-quote-api config.ts), seconds. */
const DEFAULT_INTERVAL_S = 15;
/** Ports of this scenario's own gas quote API and feeder (in the suite's API range). */
const GAS_PORT = 3210;
const FEEDER_PORT = 3211;
const PREFIX = 'faults:empty:';
const GAS = `http://127.0.0.1:${GAS_PORT}`;

const QUOTES: readonly RequestSpec[] = [
  {
    label: 'quote-ecdsa',
    url: `${GAS}/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=true`,
  },
  {
    label: 'quote-ed25519',
    url: `${GAS}/getEd25519Sig_native?localDomain=5&destinationDomain=0&isNative=true`,
  },
  { label: 'tokenPrices', url: `${GAS}/tokenPrices` },
];

/** The production environment with the price defaults left alone (no max age, no interval). */
function env(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    REDIS_URL,
    RATE_LIMIT_PER_MINUTE: '1000000',
    PORT: String(GAS_PORT),
    FEEDER_PORT: String(FEEDER_PORT),
    REDIS_PREFIX: PREFIX,
    SIGNER_ECDSA_PRIVATE_KEY,
    SIGNER_ED25519_PRIVATE_KEY: SIGNER_ED25519_SEED_HEX,
    PRICE_SOURCE: 'live',
    FEEDER_IN_PROCESS: 'false',
    UPSTREAM_TIMEOUT_MS: '1000',
    ...upstreamEnv(),
  };
}

/** Sends one command to the suite's Redis (RESP inline, after AUTH); resolves with the raw reply. */
function redisCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORTS.redis, '127.0.0.1');
    let text = '';
    socket.setTimeout(2000, () => {
      socket.destroy();
      reject(new Error(`redis ${command.split(' ')[0]}: no answer`));
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`AUTH ${REDIS_PASSWORD}\r\n${command}\r\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const lines = text.split('\r\n');
      // +OK of AUTH, then the reply: a simple string/integer line or a bulk string ($n + data).
      if (lines.length >= 3 && (!lines[1]!.startsWith('$') || lines.length >= 4)) {
        socket.destroy();
        resolve(lines.slice(1).join('\r\n'));
      }
    });
  });
}

/** The observedAt (ms) of the stored Ethereum gas entry, or undefined when absent. */
async function storedGasObservedAt(): Promise<number | undefined> {
  const reply = await redisCommand(`GET ${PREFIX}gas:0`).catch(() => '$-1');
  if (reply.startsWith('$-1')) return undefined;
  const json = reply.split('\r\n')[1] ?? '';
  return (JSON.parse(json) as { observedAt: number }).observedAt;
}

/** Ms from `from` until the stored gas entry exists and was observed after `after`, NaN after `timeoutMs`. */
async function untilWritten(from: number, after: number, timeoutMs: number): Promise<number> {
  while (Date.now() - from < timeoutMs) {
    const observedAt = await storedGasObservedAt();
    if (observedAt !== undefined && observedAt > after) return Date.now() - from;
    await sleep(50);
  }
  return Number.NaN;
}

/** Starts this scenario's feeder and waits for its /health. */
async function startFeeder(): Promise<Child> {
  const child = spawnNode('empty-redis-feeder', 'apps/gas-quote-api/dist/bin/feeder.js', env());
  await waitUntil(
    'the scenario feeder',
    () => answersOk(`http://127.0.0.1:${FEEDER_PORT}/health`),
    30_000,
    child,
  );
  return child;
}

/**
 * Runs the scenario against the suite's `redis` (restarted once); resolves with the running
 * redis-server.
 */
export async function emptyRedis(redis: Child): Promise<Child> {
  let feeder = await startFeeder();
  const gas = spawnNode('empty-redis-gas-quote-api', 'apps/gas-quote-api/dist/bin/main.js', env());
  let current = redis;
  try {
    await waitUntil(
      'the scenario gas quote API to be ready',
      () => answersOk(`${GAS}/ready`),
      60_000,
      gas,
    );
    const sw = stopSwitch();
    const deadline = Date.now() + 60_000;
    const loops = [0, 1].map((i) =>
      runLoop({
        next: cycle(i === 0 ? QUOTES : [...QUOTES].reverse()),
        pauseMs: 5,
        maxRequests: 50_000,
        deadline,
        stopped: sw.stopped,
        agent: keepAliveAgent(),
      }),
    );
    await sleep(1000);

    // (a) FLUSHALL: the store is empty, Redis never went away.
    const flushAt = Date.now();
    figure(NAME, 'FLUSHALL', (await redisCommand('FLUSHALL')).trim());
    const afterFlush = await untilWritten(flushAt, flushAt, DEFAULT_INTERVAL_S * 1000 + 5000);
    figure(NAME, 'FLUSHALL to prices stored again', `${afterFlush} ms`);
    check(
      NAME,
      'feeder writes again within one interval of FLUSHALL',
      `${afterFlush} ms`,
      afterFlush <= DEFAULT_INTERVAL_S * 1000,
    );
    await sleep(1000);

    // (b) Redis SIGKILLed and started again without persistence: it comes back empty.
    const killAt = Date.now();
    await killRedis(current);
    current = await startRedis();
    const backAt = Date.now();
    figure(NAME, 'Redis SIGKILL to answering again (empty)', `${backAt - killAt} ms`);
    const afterRestart = await untilWritten(backAt, killAt, DEFAULT_INTERVAL_S * 1000 + 5000);
    figure(NAME, 'Redis answering to prices stored again', `${afterRestart} ms`);
    check(
      NAME,
      'feeder writes within one interval of Redis returning empty',
      `${afterRestart} ms`,
      afterRestart <= DEFAULT_INTERVAL_S * 1000,
    );
    await sleep(1000);

    // (c) The feeder is SIGKILLed (its lock stays behind) and a new one started at once.
    const feederKillAt = Date.now();
    feeder.signal('SIGKILL');
    await feeder.exited;
    feeder = await startFeeder();
    const takeover = await untilWritten(
      feederKillAt,
      feederKillAt,
      DEFAULT_INTERVAL_S * 1000 + 10_000,
    );
    figure(NAME, "feeder SIGKILL to the new feeder's first write", `${takeover} ms`);
    check(
      NAME,
      "a new feeder takes over a killed one's lock and writes within one interval",
      `${takeover} ms`,
      takeover <= DEFAULT_INTERVAL_S * 1000,
    );

    await sleep(500);
    sw.stop();
    const samples: Sample[] = (await Promise.all(loops)).flat();
    const ok = (s: Sample) => s.status === 200;
    const all = summarize(NAME, 'quotes and /tokenPrices during all three', samples, ok);
    figure(NAME, 'outcomes', outcomes(samples));
    const failed = samples.filter((s) => !ok(s));
    check(
      NAME,
      '0 failed quotes (feeder at its default interval, default max age)',
      `${failed.length} failed of ${all.count}`,
      failed.length === 0 && all.count > 0,
    );
    check(
      NAME,
      'the scenario gas quote API did not restart',
      gas.running() ? `pid ${gas.pid} running` : 'exited',
      gas.running(),
    );
  } finally {
    await Promise.all([gas.stop(5000), feeder.stop(5000)]);
  }
  return current;
}
