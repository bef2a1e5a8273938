/**
 * The indexer as a process (`node dist/bin/indexer.js`, built): killed with SIGKILL in the middle of a
 * backfill and started again, it ends with every transfer written once (no gap, no duplicate);
 * it serves /health, /ready and /metrics, stops cleanly on SIGTERM, and refuses a bad
 * configuration at start-up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Hex } from 'viem';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
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

const ENTRY = fileURLToPath(new URL('../../dist/bin/indexer.js', import.meta.url));
const PORT = 3400;
const RECIPIENT = '0x00000000000000000000000000000000000e0e01' as Hex;

let anvil: Anvil;
let chain: CctpChain;
let db: TestDatabase;
let iris: FakeIris;
const hashes: string[] = [];
const children = new Set<ChildProcess>();

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
  for (const child of children) child.kill('SIGKILL');
  await iris?.close();
  await db?.drop();
  await anvil?.stop();
});

function startIndexer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });

const cursor = async (): Promise<bigint> => {
  const [row] = await rows(db.knex, `select block_number::text as n from indexer_cursors`);
  return BigInt(row?.n ?? '-1');
};

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
  const first = startIndexer(env());
  await waitFor(async () => (await cursor()) >= midway, 60_000);
  first.kill('SIGKILL');
  await exited(first);
  const atKill = await cursor();
  expect(atKill).toBeLessThan(head);
  const partial = await rows(db.knex, `select count(*)::text as n from transactions`);
  expect(Number(partial[0]!.n)).toBeLessThan(hashes.length);

  const second = startIndexer(env());
  try {
    await waitFor(async () => (await cursor()) >= head, 90_000);
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
    await waitFor(
      () => Promise.resolve(iris.requests.some((r) => r.startsWith('/v2/messages/10?'))),
      30_000,
    );
  } finally {
    second.kill('SIGTERM');
  }
  expect(await exited(second)).toBe(0);
}, 240_000);

it('a bad INDEXER_CHAINS stops it at start-up, naming the variable', async () => {
  const child = startIndexer({ ...env(), INDEXER_CHAINS: '[{"name":"x"}]' });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  expect(await exited(child)).toBe(1);
  expect(stderr).toContain('INDEXER_CHAINS');
});
