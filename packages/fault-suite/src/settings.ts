/**
 * Fixed settings of the fault suite: the ports it may use (Redis 6400-6409, PostgreSQL
 * 5450-5459, APIs 3200-3219, fake upstreams 3220-3239), the test secrets it must never find in a
 * log, and the timings the scenarios assert against (docs/operations.md "Fault suite").
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is packages/fault-suite/{src,dist}/settings.*). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RESULTS = path.join(REPO_ROOT, 'packages/fault-suite/results');
mkdirSync(RESULTS, { recursive: true });
/** Where every process's stdout/stderr lands: `packages/fault-suite/results/run-<time>-<random>/`. */
export const LOG_DIR = mkdtempSync(
  path.join(RESULTS, `run-${new Date().toISOString().replace(/[:.]/g, '-')}-`),
);
/** Scratch directory for data (PostgreSQL cluster, password file). */
export const SCRATCH = mkdtempSync(path.join(tmpdir(), 'ctss-faults-'));

/** TCP ports: one per process, all on 127.0.0.1. */
export const PORTS = {
  redis: 6400,
  postgres: 5450,
  monitoring: 3200,
  gas: 3201,
  feeder: 3202,
  upstream: 3220,
} as const;

/**
 * Fixed test signer keys (never used anywhere else): a secp256k1 key as 0x hex and an Ed25519
 * 32-byte seed as hex (README "Configuration": the forms the gas quote API accepts).
 */
export const SIGNER_ECDSA_PRIVATE_KEY =
  '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
export const SIGNER_ED25519_SEED_HEX =
  '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
/** PostgreSQL password of the `postgres` role (scram-sha-256) and the Redis `requirepass`. */
export const DB_PASSWORD = 'faults-db-Pw-7c1e9a4b2d';
export const REDIS_PASSWORD = 'faults-redis-Pw-3f8d2b6a1e';
/** The one key of API_KEYS both services run with (scenario 10 looks for it in Redis and logs). */
export const API_KEY = 'faults-api-key-9b4e1c7d2a';

/** Gas and USD entries older than this are refused (short, so scenario 1 outlives it). */
export const PRICE_MAX_AGE_SECONDS = 10;
/** Feeder refresh interval, seconds: prices are at most about this old when Redis goes. */
export const FEEDER_INTERVAL_SECONDS = 1;
/** Lifetime of the monitoring API's cached statistics, seconds. */
export const CACHE_TTL_SECONDS = 2;
/**
 * The monitoring API's first-page lifetime, seconds (FEED_FIRST_PAGE_CACHE_SECONDS): shorter than
 * the PostgreSQL outage of scenario 2, so the suite sees stored first pages stop at their age.
 */
export const FEED_FIRST_PAGE_CACHE_SECONDS = 2;
/** The lifecycle's default drain timeout (server-kit runService), ms. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** Limits asserted by the scenarios. */
export const LIMITS = {
  /** Share of requests that must succeed when their backend is not the one lost. */
  minSuccessRatio: 0.99,
  /** p99 latency of a request refused because its backend is lost, ms. */
  failFastP99Ms: 200,
  /** From the backend answering again to the first success on each endpoint, ms. */
  recoveryMs: 2000,
  /** SIGTERM to process exit, as a share of the drain timeout ("well inside"). */
  exitWithinShareOfDrain: 0.5,
  /**
   * The other clients' p99 during the connection flood may be this many times their p99 just
   * before it (docs/decisions.md "D96. The flood check asserts the 2x ratio")...
   */
  floodP99Ratio: 2,
  /**
   * ... or at most this much above it, ms, whichever is larger: a floor, so a before-p99 of a few
   * milliseconds (one scheduler tick of the shared host) does not make the check flaky.
   */
  floodP99MarginMs: 10,
} as const;

/** Seeded dataset size (apps/monitoring-api dist/bin/seed.js). */
export const SEED = { transactions: 20_000, users: 1_000 } as const;
