/**
 * A PostgreSQL outage under the running indexer loop and the rank job (docs/architecture.md
 * "Database layer"; the API's side is test/database-outage.int.test.ts): an own server is killed
 * while the indexer runs. Its ticks then fail with 503 DependencyUnavailableError from the
 * circuit breaker of its database handle (fast, logged as `indexer tick failed`, retried by the
 * loop) instead of waiting on a dead server, the rank job's run fails the same way, and once the
 * server is back the same indexer takes its chain's lock again and writes the transfer made during
 * the outage, and the job runs again.
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
import { chainConfig, indexerFor } from './support/harness.js';

const PG_PORT = 41010;
const ANVIL_PORT = 41011;
const RECIPIENT = '0x00000000000000000000000000000000000e0e02' as Hex;
const enabled = canRunOwnPostgres();
if (!enabled)
  console.info(
    'indexer database outage test skipped: needs root and PostgreSQL 15 binaries for an own server',
  );

/** Polls `check` every 100 ms until it returns true (a rejection counts as false); fails after `limitMs`. */
async function until(check: () => Promise<boolean> | boolean, limitMs: number): Promise<void> {
  const started = Date.now();
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() - started > limitMs) throw new Error(`not reached within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
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

  beforeAll(async () => {
    pg = await startOwnPostgres(PG_PORT);
    const admin = createAdminKnex(pg.url, { poolMax: 1 });
    await admin.raw('create database indexer_outage');
    await admin.destroy();
    const setup = createAdminKnex(pg.urlOf('indexer_outage'), { poolMax: 1 });
    await migrateLatest(setup);
    await setup.destroy();
    anvil = await startAnvil(ANVIL_PORT, 31_411);
    chain = await deployCctpChain(anvil.url, 6, 31_411);
    // The indexer's handle as its process builds it (indexer/server.ts), with a short statement
    // timeout so that nothing here can wait long on the server.
    db = createWriterDatabase(
      pg.urlOf('indexer_outage'),
      { poolMax: 3, timeouts: { statementTimeoutMs: 2_000 } },
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
    runner = startIndexerRunner({
      indexers: [indexerFor(chainConfig('outage-chain', chain, { pollIntervalMs: 50 }), db, locks)],
      db,
      iris: new IrisClient('http://127.0.0.1:9', 9),
      attestation: { timeoutSeconds: 3600, recheckSeconds: 60 },
      logger,
      registry: new Registry(),
    });
    const status = runner.chains[0]!;
    await until(async () => (await rowsOf(before.receipt.transactionHash)).length === 1, 60_000);
    expect(status.role).toBe('writer');

    await pg.kill();
    // The loop keeps ticking: a few connection failures open the breaker, then every tick is
    // refused by it without touching the network.
    await until(() => status.lastError?.includes('database is unavailable') === true, 20_000);
    const failed = lines.filter((line) => line.msg === 'indexer tick failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.some((line) => (line.err as { type?: string }).type === 'DependencyUnavailableError'),
    ).toBe(true);
    expect(lines.some((line) => String(line.msg).startsWith('database unavailable'))).toBe(true);

    const during = await makeTransfer(chain, {
      version: 2,
      destinationDomain: 0,
      amount: 4_000_000n,
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    await anvil.rpc('anvil_mine', ['0x4']);
    await pg.start();
    await until(async () => (await rowsOf(during.receipt.transactionHash)).length === 1, 90_000);
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
      { DATABASE_CONNECT_TIMEOUT_MS: 1_000, DATABASE_ACQUIRE_TIMEOUT_MS: 3_000 },
      jobLogger,
    );
    try {
      await runRankJobSteps(job, rule, jobLogger);
      await pg.kill();
      // The first runs meet refused connections; after three the breaker refuses at once.
      const errors: unknown[] = [];
      for (let i = 0; i < 4; i++)
        errors.push(await runRankJobSteps(job, rule, jobLogger).catch((err: unknown) => err));
      expect(errors.at(-1)).toMatchObject({ name: 'DependencyUnavailableError', status: 503 });
      await pg.start();
      let run: Awaited<ReturnType<typeof runRankJobSteps>> | undefined;
      await until(async () => {
        run = await runRankJobSteps(job, rule, jobLogger).catch(() => undefined);
        return run !== undefined;
      }, 30_000);
      expect(run!.points.mode).toBe('incremental');
    } finally {
      await job.close();
    }
  }, 120_000);
});
