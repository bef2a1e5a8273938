/**
 * The indexer as a process (`node dist/bin/indexer.js`, built) on a Solana cluster (an
 * `INDEXER_CHAINS` entry of family `solana` against the local cluster): killed with SIGKILL in
 * the middle of a backfill (one signature per page, so the backfill takes many writes) and
 * started again, it ends with every transfer written once, no gap and no duplicate, and the
 * rollups exact (docs/indexer.md "Solana").
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  buildSolanaTransfer,
  evmRecipient32,
  startFakeIris,
  startLocalSolana,
  type FakeIris,
  type LocalSolana,
} from '@ctss/devnet';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { until } from '../support/poll.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import { IndexerProcesses, exited } from './support/indexer-process.js';

const TRANSFERS = 90;

let cluster: LocalSolana;
let db: TestDatabase;
let iris: FakeIris;
const signatures: string[] = [];
const indexers = new IndexerProcesses();

beforeAll(async () => {
  cluster = await startLocalSolana();
  iris = await startFakeIris(0, {}, { solanaRpcUrl: cluster.url });
  db = await createTestDatabase();
  for (let i = 0; i < TRANSFERS; i++) {
    const t = await buildSolanaTransfer({
      version: i % 3 === 0 ? 1 : 2,
      usdcAmount: 1_000_000n + BigInt(i),
      usdcFee: 500n,
      destinationDomain: 0,
      recipient: evmRecipient32('0x00000000000000000000000000000000000e0e05'),
      cctpNonce: 500n + BigInt(i),
    });
    signatures.push(t.transaction.signature);
    cluster.land(t.transaction);
    if (i % 7 === 0) cluster.skip(1);
  }
  cluster.finalize();
}, 120_000);

afterAll(async () => {
  indexers.killAll();
  await iris?.close();
  await db?.drop();
  await cluster?.close();
});

const startIndexer = () =>
  indexers.start({
    DATABASE_URL: db.url,
    PORT: '0',
    IRIS_URL: iris.url,
    LOG_LEVEL: 'warn',
    INDEXER_CHAINS: JSON.stringify([
      { family: 'solana', name: 'solana-process', pageSize: 1, pollIntervalMs: 50 },
    ]),
    INDEXER_RPC_URLS_SOLANA_PROCESS: cluster.url,
  });

const written = async (): Promise<number> => {
  const [row] = await rows(
    db.knex,
    `select count(*)::text as n from transactions where source_domain = 5`,
  );
  return Number(row?.n ?? 0);
};

it('killed mid-backfill and restarted, it writes every Solana transfer once', async () => {
  const first = startIndexer();
  await until(written, (n) => n >= TRANSFERS / 3, 'a third of the transfers written', {
    deadlineMs: 60_000,
    pauseMs: 10,
  });
  first.kill('SIGKILL');
  await exited(first);
  const atKill = await written();
  expect(atKill).toBeLessThan(TRANSFERS);

  const second = startIndexer();
  try {
    await until(written, (n) => n >= TRANSFERS, 'every transfer written', {
      deadlineMs: 90_000,
      pauseMs: 10,
    });
    const all = await rows(
      db.knex,
      `select source_tx_hash, count(*)::text as n, bool_and(confirmed)::text as confirmed
         from transactions where source_domain = 5 group by 1`,
    );
    // Sorted here: base58 is case-sensitive, the database's collation may not be.
    all.sort((x, y) => (x.source_tx_hash! < y.source_tx_hash! ? -1 : 1));
    expect(all).toEqual(
      [...signatures].sort().map((s) => ({ source_tx_hash: s, n: '1', confirmed: 'true' })),
    );
    const [cursor] = await rows(
      db.knex,
      `select block_hash from indexer_cursors where network = 'mainnet' and domain = 5`,
    );
    expect(cursor?.block_hash).toBe(signatures[signatures.length - 1]);
    await expectRollupsExact(db.knex);
  } finally {
    second.kill('SIGTERM');
  }
  expect(await exited(second)).toBe(0);
}, 240_000);
