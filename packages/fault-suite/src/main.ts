/**
 * `pnpm test:faults`: starts its own redis-server, PostgreSQL, fake price upstream, price
 * feeder and both APIs as real processes (from `pnpm build` output), runs the fault scenarios
 * (docs/operations.md "Fault suite"), prints the figures and checks, and exits non-zero on any
 * failed check. Every process's output is in packages/fault-suite/results/run-*.
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import {
  PG_BIN,
  createEmbeddedPostgres,
  createPostgres,
  postgresAvailable,
  query,
  type Postgres,
} from './postgres.js';
import type { Child } from './processes.js';
import { startRedis } from './redis.js';
import { check, figure, printReport } from './report.js';
import { bindRace } from './scenarios/bind-race.js';
import { connectionFlood } from './scenarios/connection-flood.js';
import { wrongRedisPassword } from './scenarios/credentials.js';
import { edgeAnswers } from './scenarios/edge-answers.js';
import { emptyRedis } from './scenarios/empty-redis.js';
import { memorySoak } from './scenarios/memory-soak.js';
import { postgresLoss } from './scenarios/postgres-loss.js';
import { redisLoss } from './scenarios/redis-loss.js';
import { secretsScan } from './scenarios/secrets.js';
import { sigterm } from './scenarios/sigterm.js';
import { seedDatabase, startFeeder, startGasQuoteApi, startMonitoringApi } from './services.js';
import { LOG_DIR, REPO_ROOT, SCRATCH } from './settings.js';
import { startFakeUpstream } from './upstream.js';

/**
 * The whole run must end well inside CI's patience: ten scenarios take about three and a half
 * minutes on a quiet 2-core host; the limit leaves room for a slower one.
 */
const HARD_LIMIT_MS = 480_000;

const started = Date.now();
const say = (text: string) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}\n`);

for (const entry of [
  'apps/gas-quote-api/dist/bin/main.js',
  'apps/monitoring-api/dist/bin/main.js',
]) {
  if (!existsSync(path.join(REPO_ROOT, entry))) {
    process.stderr.write(`fault suite: ${entry} is missing; run pnpm build first\n`);
    process.exit(2);
  }
}

const children: Child[] = [];
let redis: Child | undefined;
let db: Postgres | undefined;
let upstream: Server | undefined;

async function cleanUp(): Promise<void> {
  await Promise.all([...children, ...(redis ? [redis] : [])].map((c) => c.stop(5000)));
  if (db) {
    if (existsSync(db.logFile)) copyFileSync(db.logFile, path.join(LOG_DIR, 'postgres-server.log'));
    await db.destroy();
  }
  upstream?.closeAllConnections();
  upstream?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
}

/** Runs one scenario; a crash is a failed check naming the scenario. */
async function runScenario(name: string, run: () => Promise<void>): Promise<void> {
  say(`scenario ${name}`);
  try {
    await run();
  } catch (err) {
    check(name, 'scenario ran to the end', err instanceof Error ? err.message : String(err), false);
  }
}

const hardLimit = setTimeout(() => {
  process.stderr.write(`fault suite: hard limit of ${HARD_LIMIT_MS} ms reached; stopping\n`);
  void cleanUp().finally(() => process.exit(3));
}, HARD_LIMIT_MS);
hardLimit.unref();

let failed = 1;
try {
  say(`logs in ${LOG_DIR}`);
  redis = await startRedis();
  say(`redis-server pid ${redis.pid}`);
  if (postgresAvailable()) {
    db = await createPostgres();
    say(`PostgreSQL cluster started from ${PG_BIN} (scram-sha-256 password)`);
  } else {
    db = await createEmbeddedPostgres();
    say(`no PostgreSQL binaries in ${PG_BIN}: FALLBACK to the embedded PGlite socket server`);
    figure('setup', 'database', 'embedded PGlite fallback (no password; stopped, not killed)');
  }
  if (!db.embedded) await seedDatabase(db.url);
  say('database seeded');
  upstream = await startFakeUpstream();
  const feeder = await startFeeder();
  children.push(feeder);
  const [gas, monitoring] = await Promise.all([
    startGasQuoteApi(),
    startMonitoringApi(db.url, db.embedded),
  ]);
  children.push(gas, monitoring);
  say(
    `feeder pid ${feeder.pid}, gas quote API pid ${gas.pid}, monitoring API pid ${monitoring.pid}`,
  );
  figure(
    'setup',
    'start-up (backends, seed, services)',
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const databaseUrl = db.url;
  // Users of the suite's own, without wallets, so binding them is possible.
  const users = await query<{ username: string }>(
    databaseUrl,
    `insert into users (username, ref_code) values ('faultsrace.ctss', 'FAULTSRACE'), ('faultsload.ctss', 'FAULTSLOAD') returning username`,
  );
  const [raceUser, loadUser] = users.map((u) => u.username);
  if (!raceUser || !loadUser) throw new Error('could not create the suite users');

  // FAULTS_ONLY=1,3 runs only those scenarios (while working on one).
  const only = (process.env.FAULTS_ONLY ?? '').split(',').filter(Boolean);
  const scenario = (name: string, run: () => Promise<void>) =>
    only.length === 0 || only.includes(name.split(' ')[0]!)
      ? runScenario(name, run)
      : Promise.resolve();
  await scenario('4 bind race', () => bindRace(databaseUrl, raceUser));
  await scenario('1 redis loss', async () => {
    redis = await redisLoss(redis!, [feeder, gas, monitoring], loadUser);
  });
  await scenario('6 redis empty', async () => {
    redis = await emptyRedis(redis!);
  });
  const embedded = db.embedded;
  await scenario('7 wrong redis password', () => wrongRedisPassword(databaseUrl, embedded));
  const pg = db;
  await scenario('2 postgres loss', () => postgresLoss(pg, [feeder, gas, monitoring], loadUser));
  await scenario('10 edge answers', () => edgeAnswers());
  await scenario('8 connection flood', () => connectionFlood(monitoring));
  await scenario('9 memory soak', () => memorySoak(gas, monitoring, loadUser));
  await scenario('3 sigterm', () => sigterm(monitoring, gas, loadUser));
  await Promise.all(children.map((c) => c.stop(5000)));
  await redis.stop(5000);
  if (existsSync(pg.logFile)) copyFileSync(pg.logFile, path.join(LOG_DIR, 'postgres-server.log'));
  await scenario('5 secrets in logs', () => Promise.resolve(secretsScan()));
  failed = 0;
} catch (err) {
  check('setup', 'services started', err instanceof Error ? err.message : String(err), false);
} finally {
  await cleanUp();
  failed = printReport() + failed;
  say(`done; logs in ${LOG_DIR}`);
  process.exit(failed > 0 ? 1 : 0);
}
