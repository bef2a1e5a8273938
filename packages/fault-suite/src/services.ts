/**
 * The services as production runs them, with NODE_ENV=production: the gas quote API
 * (`apps/gas-quote-api/dist/bin/main.js`) on live prices (fake upstream) with the price feeder as
 * its own process (`dist/bin/feeder.js`), the monitoring API (`apps/monitoring-api/dist/bin/main.js`)
 * on the suite's PostgreSQL and Redis. Rate limits are raised (still enforced) because every load
 * client shares 127.0.0.1.
 */
import { answersOk, runToEnd, spawnNode, waitUntil, type Child } from './processes.js';
import { REDIS_URL } from './redis.js';
import {
  API_KEY,
  CACHE_TTL_SECONDS,
  FEED_FIRST_PAGE_CACHE_SECONDS,
  FEEDER_INTERVAL_SECONDS,
  PORTS,
  PRICE_MAX_AGE_SECONDS,
  SEED,
  SIGNER_ECDSA_PRIVATE_KEY,
  SIGNER_ED25519_SEED_HEX,
} from './settings.js';
import { upstreamEnv } from './upstream.js';

/** Base URLs of the APIs. */
export const MONITORING_URL = `http://127.0.0.1:${PORTS.monitoring}`;
export const GAS_URL = `http://127.0.0.1:${PORTS.gas}`;

const common = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  REDIS_URL,
  RATE_LIMIT_PER_MINUTE: '1000000',
  API_KEYS: API_KEY,
};

function gasEnv(): Record<string, string> {
  return {
    ...common,
    PORT: String(PORTS.gas),
    FEEDER_PORT: String(PORTS.feeder),
    REDIS_PREFIX: 'faults:gas:',
    SIGNER_ECDSA_PRIVATE_KEY,
    SIGNER_ED25519_PRIVATE_KEY: SIGNER_ED25519_SEED_HEX,
    PRICE_SOURCE: 'live',
    FEEDER_IN_PROCESS: 'false',
    PRICE_MAX_AGE_SECONDS: String(PRICE_MAX_AGE_SECONDS),
    FEEDER_INTERVAL_SECONDS: String(FEEDER_INTERVAL_SECONDS),
    UPSTREAM_TIMEOUT_MS: '1000',
    ...upstreamEnv(),
  };
}

/** `embedded`: the PGlite fallback, which runs one statement at a time (no pipelining, small pools). */
function monitoringEnv(databaseUrl: string, embedded = false): Record<string, string> {
  return {
    ...(embedded ? { DATABASE_POOL_MAX: '2', DATABASE_PIPELINE_LANES: '0' } : {}),
    ...common,
    PORT: String(PORTS.monitoring),
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: 'faults:monitoring:',
    // Short, so cached statistics go stale within the PostgreSQL outage of scenario 2.
    CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS),
    FEED_FIRST_PAGE_CACHE_SECONDS: String(FEED_FIRST_PAGE_CACHE_SECONDS),
  };
}

/** Migrates and seeds the monitoring database (SEED sizes) with `dist/bin/seed.js`. */
export async function seedDatabase(databaseUrl: string): Promise<void> {
  await runToEnd({
    name: 'seed',
    command: process.execPath,
    args: [
      'apps/monitoring-api/dist/bin/seed.js',
      '--transactions',
      String(SEED.transactions),
      '--users',
      String(SEED.users),
    ],
    env: { ...monitoringEnv(databaseUrl), LOG_LEVEL: 'info' },
  });
}

/** Spawns `script` as `name` with `env` and waits until `readyUrl` answers 200 (`what` names the wait). */
async function startService(
  name: string,
  script: string,
  env: Record<string, string>,
  what: string,
  readyUrl: string,
  timeoutMs: number,
): Promise<Child> {
  const child = spawnNode(name, script, env);
  await waitUntil(what, () => answersOk(readyUrl), timeoutMs, child);
  return child;
}

/** Starts the price feeder and waits for its /health. */
export async function startFeeder(): Promise<Child> {
  return startService(
    'gas-quote-feeder',
    'apps/gas-quote-api/dist/bin/feeder.js',
    gasEnv(),
    'the feeder',
    `http://127.0.0.1:${PORTS.feeder}/health`,
    30_000,
  );
}

/** Starts the gas quote API and waits until /ready (fresh prices from the feeder) answers 200. */
export async function startGasQuoteApi(): Promise<Child> {
  return startService(
    'gas-quote-api',
    'apps/gas-quote-api/dist/bin/main.js',
    gasEnv(),
    'the gas quote API to be ready',
    `${GAS_URL}/ready`,
    60_000,
  );
}

/** Starts the monitoring API and waits until /ready answers 200. */
export async function startMonitoringApi(databaseUrl: string, embedded: boolean): Promise<Child> {
  return startService(
    'monitoring-api',
    'apps/monitoring-api/dist/bin/main.js',
    monitoringEnv(databaseUrl, embedded),
    'the monitoring API to be ready',
    `${MONITORING_URL}/ready`,
    60_000,
  );
}
