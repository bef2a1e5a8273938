/**
 * Points end to end on a local chain: a user joins over HTTP with the wallet that then sends a
 * transfer on anvil (the stand-in CCTP contracts); the real chain indexer records it, and after
 * the points and rank job has run, the sender's `GET /users?wallets=` swap points, its
 * `GET /users/leaderboard` total and its stored rank have moved. A reorg (`anvil_reorg`) that
 * removes a confirmed transfer takes its points back at the next run, and the rank with them.
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import { makeTransfer } from '@ctss/devnet';
import type { Express } from 'express';
import request from 'supertest';
import type { Hex } from 'viem';
import { createApp } from '../../src/app.js';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { pointsConfigSchema, pointsRuleOf } from '../../src/points/rule.js';
import { runRankJobSteps } from '../../src/rank-job.js';
import { buildTestDeps, type TestDeps } from '../support/deps.js';
import {
  chainConfig,
  indexerFor,
  startIndexedChain,
  stopIndexedChain,
  syncAll,
  type IndexedChain,
} from '../indexer/support/harness.js';
import { bindTestWallet, evmAddress, insertUser } from '../users/builders.js';

jest.setTimeout(180_000);

let fx: IndexedChain;
let indexer: ChainIndexer;
let deps: TestDeps;
let app: Express;
const RECIPIENT = '0x00000000000000000000000000000000000c0c02' as Hex;
const RIVAL = evmAddress(0xe1);
const rule = pointsRuleOf(pointsConfigSchema.parse({}));
const silent = createLogger({ name: 'points-e2e', level: 'silent' });

beforeAll(async () => {
  fx = await startIndexedChain(8611, 31_011, 6);
  // One block of depth: a transfer counts (confirmed) once one block is above it.
  indexer = indexerFor(
    chainConfig('points-chain', fx.chain, { confirmations: 1 }),
    fx.db.database,
    fx.locks,
  );
  deps = buildTestDeps({ database: fx.db.database });
  app = createApp(deps);
}, 120_000);

afterAll(async () => {
  await deps?.close();
  await stopIndexedChain(fx);
});

const mine = (blocks: number) =>
  fx.chain.client.request({
    method: 'anvil_mine' as never,
    params: [`0x${blocks.toString(16)}`] as never,
  });

const transfer = (amount: bigint) =>
  makeTransfer(fx.chain, {
    version: 1,
    destinationDomain: 0,
    amount,
    fee: 100_000n,
    recipient: RECIPIENT,
  });

/** The sender's wallet points and its user's leaderboard entry, over HTTP. */
async function standing(): Promise<{ swap: number; total: number; rank: number | null }> {
  const sender = fx.chain.userAccount.address;
  const users = await request(app)
    .get('/users')
    .query({ wallets: `${sender}_evm` })
    .expect(200);
  const [user] = (
    users.body as {
      users: { username: string; wallets: { chain_type: string; swap_points_mainnet: number }[] }[];
    }
  ).users;
  expect(user?.username).toBe('sender.ctss');
  const board = await request(app)
    .get('/users/leaderboard')
    .query({ network: 'mainnet' })
    .expect(200);
  const entry = (
    board.body as {
      leaderboard: {
        username: string;
        domain_total_multiplied_points: number;
        domain_rank: number | null;
      }[];
    }
  ).leaderboard.find((e) => e.username === 'sender.ctss');
  return {
    swap: user!.wallets.find((w) => w.chain_type === 'evm')!.swap_points_mainnet,
    total: entry!.domain_total_multiplied_points,
    rank: entry!.domain_rank,
  };
}

it('when the sender joins and its transfer is indexed, then after the job its points, leaderboard total and rank move', async () => {
  // A rival with 25 points from before.
  const rival = await insertUser(fx.db.knex, { username: 'rival.ctss' });
  await bindTestWallet(fx.db.knex, rival, 'evm', RIVAL, {
    swap_points_mainnet: 25,
  });
  // The sender joins through the public path: nonce, EIP-191 signature, first bind.
  const account = fx.chain.userAccount;
  const issued = await request(app)
    .get('/users/messages')
    .query({ username: 'sender.ctss', address: account.address, chain_type: 'evm' })
    .expect(200);
  const message = (issued.body as { message: string }).message;
  await request(app)
    .post('/users/verify')
    .send({
      username: 'sender.ctss',
      address: account.address,
      chain_type: 'evm',
      type: 'bind',
      signature: await account.signMessage({ message }),
      message,
    })
    .expect(200);
  await runRankJobSteps(fx.db.database, rule, silent);
  expect(await standing()).toEqual({ swap: 0, total: 0, rank: 2 });

  // 30 USDC on chain A, indexed and confirmed (one block above it).
  const sent = await transfer(30_000_000n);
  await mine(1);
  await syncAll([indexer]);
  const [row] = (
    await fx.db.knex.raw<{ rows: { sender: string; confirmed: boolean }[] }>(
      'select sender, confirmed from transactions where source_tx_hash = ?',
      [sent.receipt.transactionHash.toLowerCase()],
    )
  ).rows;
  expect(row).toEqual({ sender: account.address.toLowerCase(), confirmed: true });
  // Points move with the job's run, not before.
  expect(await standing()).toEqual({ swap: 0, total: 0, rank: 2 });
  const run = await runRankJobSteps(fx.db.database, rule, silent);
  expect(run.points).toMatchObject({ mode: 'incremental', senders: 1 });
  expect(await standing()).toEqual({ swap: 30, total: 30, rank: 1 });
});

it('when a reorg removes a confirmed transfer, then the next job run takes its points back and the rank follows', async () => {
  await mine(3);
  const dropped = await transfer(45_000_000n);
  await mine(1);
  await syncAll([indexer]);
  await runRankJobSteps(fx.db.database, rule, silent);
  expect(await standing()).toEqual({ swap: 75, total: 75, rank: 1 });
  // The rival passes the sender's points without the dropped transfer.
  await fx.db.knex.raw(
    `update wallet_points set swap_points_mainnet = 50, total_points_multiplied_mainnet = 50 where address_key = ?`,
    [RIVAL],
  );

  // Replace the transfer's block and the one above it with empty blocks.
  await fx.anvil.rpc('anvil_reorg', [2, []]);
  await mine(1);
  await syncAll([indexer]);
  const rows = await fx.db.knex.raw<{ rows: unknown[] }>(
    'select 1 from transactions where source_tx_hash = ?',
    [dropped.receipt.transactionHash.toLowerCase()],
  );
  expect(rows.rows).toEqual([]);
  const run = await runRankJobSteps(fx.db.database, rule, silent);
  expect(run.points).toMatchObject({ mode: 'incremental', senders: 1 });
  expect(await standing()).toEqual({ swap: 30, total: 30, rank: 2 });
});
