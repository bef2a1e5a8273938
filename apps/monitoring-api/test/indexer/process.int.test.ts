/**
 * The indexer as a process (`node dist/bin/indexer.js`, built): killed with SIGKILL in the middle of a
 * backfill and started again, it ends with every transfer written once (no gap, no duplicate);
 * it serves /health, /ready and /metrics, stops cleanly on SIGTERM, and refuses a bad
 * configuration at start-up.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Hex } from 'viem';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { until } from '../support/poll.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import { IndexerProcesses, exited } from './support/indexer-process.js';
import {
  startAnvil,
  type Anvil,
  deployCctpChain,
  makeTransfer,
  type CctpChain,
  startFakeIris,
  type FakeIris,
} from '@ctss/devnet';
import { chainConfigInput } from './support/harness.js';

const PORT = 3400;
const RECIPIENT = '0x00000000000000000000000000000000000e0e01' as Hex;

let anvil: Anvil;
let chain: CctpChain;
let db: TestDatabase;
let iris: FakeIris;
const hashes: string[] = [];
const indexers = new IndexerProcesses();

beforeAll(async () => {
  anvil = await startAnvil(8604, 31_010);
  chain = await deployCctpChain(anvil.url, 10, 31_010);
  db = await createTestDatabase();
  iris = await startFakeIris(8621, { 10: anvil.url });
  for (let i = 0; i < 10; i++) {
    const sent = await makeTransfer(chain, {
      version: 2,
      destinationDomain: 0,
      amount: BigInt(2_000_000 + i),
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    hashes.push(sent.receipt.transactionHash.toLowerCase());
    await anvil.rpc('anvil_mine', ['0x14']);
  }
}, 180_000);

afterAll(async () => {
  indexers.killAll();
  await iris?.close();
  await db?.drop();
  await anvil?.stop();
});

const cursor = async (): Promise<bigint> => {
  const [row] = await rows(db.knex, `select block_number::text as n from indexer_cursors`);
  return BigInt(row?.n ?? '-1');
};

const env = () => ({
  DATABASE_URL: db.url,
  PORT: String(PORT),
  IRIS_URL: iris.url,
  LOG_LEVEL: 'warn',
  INDEXER_CHAINS: JSON.stringify([
    chainConfigInput('process-chain', chain, {
      domain: 10,
      rpcUrls: [anvil.url],
      confirmations: 1,
      pollIntervalMs: 100,
      maxBlockRange: 1,
    }),
  ]),
});

it('killed mid-backfill and restarted, it writes every transfer once', async () => {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const midway = BigInt(chain.startBlock) + (head - BigInt(chain.startBlock)) / 3n;
  const first = indexers.start(env());
  await until(cursor, (block) => block >= midway, 'the cursor a third of the way', {
    deadlineMs: 60_000,
    pauseMs: 20,
  });
  first.kill('SIGKILL');
  await exited(first);
  const atKill = await cursor();
  expect(atKill).toBeLessThan(head);
  const partial = await rows(db.knex, `select count(*)::text as n from transactions`);
  expect(Number(partial[0]!.n)).toBeLessThan(hashes.length);

  const second = indexers.start(env());
  try {
    await until(cursor, (block) => block >= head, 'the cursor at the head', {
      deadlineMs: 90_000,
      pauseMs: 20,
    });
    const written = await rows(
      db.knex,
      `select source_tx_hash, count(*)::text as n from transactions group by 1 order by 1`,
    );
    expect(written).toEqual([...hashes].sort().map((h) => ({ source_tx_hash: h, n: '1' })));
    await expectRollupsExact(db.knex);

    const health = (await (await fetch(`http://127.0.0.1:${PORT}/health`)).json()) as {
      chains: { name: string; role: string }[];
    };
    expect(health.chains).toEqual([
      expect.objectContaining({ name: 'process-chain', role: 'writer' }),
    ]);
    expect((await fetch(`http://127.0.0.1:${PORT}/ready`)).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
    expect(metrics).toMatch(/indexer_ticks_total\{chain="process-chain",result="scanned"\} \d+/);
    // Iris was asked about the v2 transfers through the v2 endpoint.
    await until(
      () => iris.requests,
      (asked) => asked.some((r) => r.startsWith('/v2/messages/10?')),
      'a v2 request to Iris',
      { deadlineMs: 30_000, pauseMs: 20 },
    );
  } finally {
    second.kill('SIGTERM');
  }
  expect(await exited(second)).toBe(0);
}, 240_000);

it('a bad INDEXER_CHAINS stops it at start-up, naming the variable', async () => {
  const child = indexers.start({ ...env(), INDEXER_CHAINS: '[{"name":"x"}]' });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  expect(await exited(child)).toBe(1);
  expect(stderr).toContain('INDEXER_CHAINS');
});
