/**
 * A PostgreSQL outage under the running indexer loop and the rank job (docs/architecture.md
 * "Database layer"; the API's side is test/database-outage.int.test.ts): an own server is killed
 * while the indexer runs. Once a few connection failures have opened the circuit breaker of its
 * database handle, every tick fails with 503 DependencyUnavailableError (logged as `indexer tick
 * failed`, retried by the loop) well within the connect timeout instead of waiting on a dead
 * server, every rank job run fails the same way, and once the server is back the same indexer
 * takes its chain's lock again and writes the transfer made during the outage, and the job runs
 * again.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import {
  deployCctpChain,
  makeTransfer,
  startAnvil,
  type Anvil,
  type CctpChain,
} from '@ctss/devnet';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { Hex } from 'viem';
import { createAdminKnex, createWriterDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { ChainLocks } from '../../src/indexer/lock.js';
import { startIndexerRunner, type IndexerRunner } from '../../src/indexer/runner.js';
import { migrateLatest } from '../../src/migrations/index.js';
import { pointsConfigSchema, pointsRuleOf } from '../../src/points/rule.js';
import { openRankJobDatabase, runRankJobSteps } from '../../src/rank-job.js';
import { canRunOwnPostgres, startOwnPostgres, type OwnPostgres } from '../support/own-postgres.js';
import { until } from '../support/poll.js';
import { chainConfig, indexerFor } from './support/harness.js';

/**
 * The own server's port, kept across its restart: below the kernel's ephemeral range (32768-60999
 * on Linux), so no outgoing connection of another test can take it while the server is down.
 */
const PG_PORT = 5444;
const RECIPIENT = '0x00000000000000000000000000000000000e0e02' as Hex;
/** The connect timeout of both handles here, ms: what a tick or a run would wait on a dead link. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * Longest a refused tick or run may take, ms: the breaker refuses before any network traffic, so
 * this only has to be well below {@link CONNECT_TIMEOUT_MS} (generous, not a performance figure).
 */
const REFUSED_WITHIN_MS = 1_000;
/** The breaker's refusal (db/circuit-breaker.ts), as thrown and as `pino` logs it. */
const REFUSAL = {
  name: 'DependencyUnavailableError',
  status: 503,
  code: 'DEPENDENCY_UNAVAILABLE',
  dependency: 'database',
};
const enabled = canRunOwnPostgres();
if (!enabled)
  console.info(
    'indexer database outage test skipped: needs root and PostgreSQL 15 binaries for an own server',
  );

/**
 * What `run` rejected with and the milliseconds it took to.
 *
 * @throws Error when `run` resolves.
 */
async function refusalOf(run: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await run().then(
    () => {
      throw new Error('expected a failure, got a result');
    },
    (err: unknown) => err,
  );
  return { error, ms: performance.now() - started };
}

(enabled ? describe : describe.skip)('a database outage under the indexer and the rank job', () => {
  let pg: OwnPostgres;
  let anvil: Anvil;
  let chain: CctpChain;
  let db: Database;
  let locks: ChainLocks;
  let runner: IndexerRunner | undefined;
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const rowsOf = async (hash: string) =>
    db.rows('select id from transactions where source_tx_hash = $1', [hash.toLowerCase()]);
  /** The rows of `hash`, or none while the database is down (the breaker refuses). */
  const rowsOrNoneOf = (hash: string) => rowsOf(hash).catch(() => []);
  /** The `indexer tick failed` lines logged so far, their errors as `pino` serialized them. */
  const tickFailures = () =>
    lines
      .filter((line) => line.msg === 'indexer tick failed')
      .map((line) => line.err as Record<string, unknown>);

  beforeAll(async () => {
    pg = await startOwnPostgres(PG_PORT);
    const admin = createAdminKnex(pg.url, { poolMax: 1 });
    await admin.raw('create database indexer_outage');
    await admin.destroy();
    const setup = createAdminKnex(pg.urlOf('indexer_outage'), { poolMax: 1 });
    await migrateLatest(setup);
    await setup.destroy();
    anvil = await startAnvil(0, 31_411);
    chain = await deployCctpChain(anvil.url, 6, 31_411);
    // The indexer's handle as its process builds it (indexer/server.ts), with a short statement
    // timeout so that nothing here can wait long on the server.
    db = createWriterDatabase(
      pg.urlOf('indexer_outage'),
      { poolMax: 3, timeouts: { statementTimeoutMs: 2_000, connectTimeoutMs: CONNECT_TIMEOUT_MS } },
      logger,
    );
    locks = new ChainLocks(db);
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await locks?.close();
    await db?.close();
    await anvil?.stop();
    await pg?.destroy();
  });

  it('when PostgreSQL dies under the indexer loop, then its ticks fail at once through the breaker and it resumes writing once the server is back', async () => {
    const before = await makeTransfer(chain, {
      version: 2,
      destinationDomain: 0,
      amount: 3_000_000n,
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    await anvil.rpc('anvil_mine', ['0x4']);
    const indexer = indexerFor(
      chainConfig('outage-chain', chain, { pollIntervalMs: 50 }),
      db,
      locks,
    );
    runner = startIndexerRunner({
      indexers: [indexer],
      db,
      iris: new IrisClient('http://127.0.0.1:9', 9),
      attestation: { timeoutSeconds: 3600, recheckSeconds: 60 },
      logger,
      registry: new Registry(),
    });
    const status = runner.chains[0]!;
    await until(
      () => rowsOf(before.receipt.transactionHash),
      (rows) => rows.length === 1,
      'the transfer made before the outage',
    );
    expect(status.role).toBe('writer');

    await pg.kill();
    // The loop keeps ticking: a few connection failures open the breaker, then every tick is
    // refused by it without touching the network. The failure that opens it is logged after the
    // breaker's own line, so the refusals start at the first tick failed with one.
    const refusedTicks = () => {
      const failures = tickFailures();
      const first = failures.findIndex((err) => err.type === REFUSAL.name);
      return first < 0 ? [] : failures.slice(first);
    };
    await until(refusedTicks, (errs) => errs.length >= 3, 'three ticks refused by the breaker', {
      deadlineMs: 30_000,
    });
    expect(lines.some((line) => String(line.msg).startsWith('database unavailable'))).toBe(true);
    expect(status.lastError).toBe('database is unavailable; retry shortly');
    // A tick of the same indexer now: refused before any connection attempt.
    const tick = await refusalOf(() => indexer.tick());
    expect(tick.error).toMatchObject(REFUSAL);
    expect(tick.ms).toBeLessThan(REFUSED_WITHIN_MS);

    const during = await makeTransfer(chain, {
      version: 2,
      destinationDomain: 0,
      amount: 4_000_000n,
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    await anvil.rpc('anvil_mine', ['0x4']);
    // Every tick since the first refusal, the server down all along, was refused by the breaker.
    const { name: type, ...logged } = REFUSAL;
    for (const err of refusedTicks()) expect(err).toMatchObject({ type, ...logged });
    await pg.start();
    await until(
      () => rowsOrNoneOf(during.receipt.transactionHash),
      (rows) => rows.length === 1,
      'the transfer made during the outage',
      { deadlineMs: 90_000 },
    );
    expect(status.lastError).toBeNull();
    expect(status.role).toBe('writer');
    expect(locks.holds(`mainnet:6`)).toBe(true);
    expect(await rowsOf(before.receipt.transactionHash)).toHaveLength(1);
    await runner.stop();
    runner = undefined;
  }, 240_000);

  it('when PostgreSQL is down, then a rank job run fails at once through the breaker, and the next run succeeds once it is back', async () => {
    const rule = pointsRuleOf(pointsConfigSchema.parse({}));
    const jobLogger = createLogger({ name: 'rank-job-outage-test', level: 'silent' });
    const job = openRankJobDatabase(
      pg.urlOf('indexer_outage'),
      { DATABASE_CONNECT_TIMEOUT_MS: CONNECT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS: 3_000 },
      jobLogger,
    );
    const runJob = () => runRankJobSteps(job, rule, jobLogger);
    try {
      await runJob();
      await pg.kill();
      // The first runs meet refused connections: each counts one failure, the third opens the
      // breaker.
      // (An error of another realm under Jest's VM modules: its shape, not its prototype.)
      for (let i = 0; i < 3; i++)
        expect((await refusalOf(runJob)).error).toMatchObject({ message: expect.any(String) });
      // From then on every run is refused by the breaker, before any connection attempt.
      for (let i = 0; i < 3; i++) {
        const run = await refusalOf(runJob);
        expect(run.error).toMatchObject(REFUSAL);
        expect(run.ms).toBeLessThan(REFUSED_WITHIN_MS);
      }
      await pg.start();
      const run = await until(
        () => runJob().catch(() => undefined),
        (result) => result !== undefined,
        'a rank job run once the server is back',
        { deadlineMs: 30_000 },
      );
      expect(run!.points.mode).toBe('incremental');
    } finally {
      await job.close();
    }
  }, 120_000);
});
