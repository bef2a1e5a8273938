/**
 * Reorgs on a local anvil chain (`anvil_reorg`, `evm_snapshot` / `evm_revert`): a reorg that
 * drops a transfer removes its row and its rollup contributions; one that re-includes it in
 * another block leaves one row, with the new block, confirmed once deep enough; one deeper than
 * the confirmation depth is repaired back to the common ancestor (the confirmed ghost record
 * leaves, the transfer mined in its place appears, statistics stay exact) and is counted and
 * logged as an error.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Hex } from 'viem';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { startIndexerRunner } from '../../src/indexer/runner.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import { makeTransfer } from '@ctss/devnet';
import {
  chainConfig,
  indexerFor,
  startIndexedChain,
  stopIndexedChain,
  syncAll,
  type IndexedChain,
} from './support/harness.js';

let fx: IndexedChain;
let indexer: ChainIndexer;
const RECIPIENT = '0x00000000000000000000000000000000000c0c01' as Hex;

beforeAll(async () => {
  fx = await startIndexedChain(8602, 31_006, 6);
  indexer = indexerFor(
    chainConfig('reorg-chain', fx.chain, { confirmations: 4 }),
    fx.db.database,
    fx.locks,
  );
}, 120_000);

afterAll(() => stopIndexedChain(fx));

const transfer = (amount: bigint) =>
  makeTransfer(fx.chain, {
    version: 1,
    destinationDomain: 0,
    amount,
    fee: 100_000n,
    recipient: RECIPIENT,
  });

const rowsOf = (txHash: string) =>
  rows(
    fx.db.knex,
    `select block_number::text, block_hash, confirmed::text, deposit_amount::text from transactions where source_tx_hash = ?`,
    [txHash.toLowerCase()],
  );

it('a reorg that drops a transfer removes its row and its rollup contributions', async () => {
  const kept = await transfer(3_000_000n);
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x5'] as never });
  const dropped = await transfer(9_000_000n);
  await syncAll([indexer]);
  expect(await rowsOf(dropped.receipt.transactionHash)).toHaveLength(1);
  const [volume] = await rows(
    fx.db.knex,
    `select volume::text from tx_domain_totals where source_domain = 6`,
  );
  expect(volume!.volume).toBe('12000000');
  // Replace the last block (the dropped transfer's) with an empty one, then one more block.
  await fx.anvil.rpc('anvil_reorg', [1, []]);
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
  const results = await syncAll([indexer]);
  expect(results[0]!.kind).toBe('idle');
  expect(await rowsOf(dropped.receipt.transactionHash)).toEqual([]);
  expect(await rowsOf(kept.receipt.transactionHash)).toHaveLength(1);
  const [after] = await rows(
    fx.db.knex,
    `select volume::text, tx_count::text from tx_domain_totals where source_domain = 6`,
  );
  expect(after).toEqual({ volume: '3000000', tx_count: '1' });
  await expectRollupsExact(fx.db.knex);
});

it('a reorg that re-includes a transfer in another block leaves one row, confirmed once deep enough', async () => {
  const sent = await transfer(4_000_000n);
  const raw = await fx.anvil.rpc<Hex>('eth_getRawTransactionByHash', [
    sent.receipt.transactionHash,
  ]);
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
  await syncAll([indexer]);
  const [before] = await rowsOf(sent.receipt.transactionHash);
  expect(before).toMatchObject({
    confirmed: 'false',
    block_number: sent.receipt.blockNumber.toString(),
  });
  // Replace the last 2 blocks; the transfer goes into the second new block (one block later).
  await fx.anvil.rpc('anvil_reorg', [2, [[raw, 1]]]);
  const receipt = await fx.chain.client.getTransactionReceipt({
    hash: sent.receipt.transactionHash,
  });
  expect(receipt.blockHash).not.toBe(sent.receipt.blockHash);
  await syncAll([indexer]);
  expect(await rowsOf(sent.receipt.transactionHash)).toEqual([
    {
      block_number: receipt.blockNumber.toString(),
      block_hash: receipt.blockHash.toLowerCase(),
      confirmed: 'false',
      deposit_amount: '4000000',
    },
  ]);
  await expectRollupsExact(fx.db.knex);
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x4'] as never });
  await syncAll([indexer]);
  const [final] = await rowsOf(sent.receipt.transactionHash);
  expect(final!.confirmed).toBe('true');
  expect(await rows(fx.db.knex, `select count(*)::text as n from transactions`)).toEqual([
    { n: '2' },
  ]);
  await expectRollupsExact(fx.db.knex);
});

it('a reorg deeper than the confirmation depth is repaired back to the common ancestor, counted and logged', async () => {
  await syncAll([indexer]);
  const [totalsBefore] = await rows(
    fx.db.knex,
    `select volume::text, tx_count::text from tx_domain_totals where source_domain = 6`,
  );
  const snapshot = await fx.anvil.rpc<Hex>('evm_snapshot', []);
  const ghost = await transfer(6_000_000n);
  // 6 blocks above the ghost: deeper than the 4 confirmations, so it is counted final.
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x6'] as never });
  await syncAll([indexer]);
  expect((await rowsOf(ghost.receipt.transactionHash))[0]!.confirmed).toBe('true');

  // The chain goes back before the ghost's block; another transfer is mined in its place.
  await fx.anvil.rpc('evm_revert', [snapshot]);
  const replacement = await transfer(2_500_000n);
  expect(replacement.receipt.blockNumber).toBe(ghost.receipt.blockNumber);
  await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x8'] as never });

  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const registry = new Registry();
  const runner = startIndexerRunner({
    indexers: [indexer],
    db: fx.db.database,
    // No Iris here: the attestation poller's requests fail fast and are retried later.
    iris: new IrisClient('http://127.0.0.1:9', 9),
    attestation: { timeoutSeconds: 3600, recheckSeconds: 60 },
    logger,
    registry,
  });
  try {
    for (let i = 0; i < 200; i++) {
      const replaced = await rowsOf(replacement.receipt.transactionHash);
      if (replaced.length === 1 && runner.chains[0]!.lastTickAt && i > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await runner.stop();
  }
  expect(await rowsOf(ghost.receipt.transactionHash)).toEqual([]);
  expect(await rowsOf(replacement.receipt.transactionHash)).toEqual([
    expect.objectContaining({
      block_number: replacement.receipt.blockNumber.toString(),
      block_hash: replacement.receipt.blockHash.toLowerCase(),
      deposit_amount: '2500000',
      confirmed: 'true',
    }),
  ]);
  const [totalsAfter] = await rows(
    fx.db.knex,
    `select volume::text, tx_count::text from tx_domain_totals where source_domain = 6`,
  );
  expect(totalsAfter).toEqual({
    volume: (BigInt(totalsBefore!.volume!) + 2_500_000n).toString(),
    tx_count: (BigInt(totalsBefore!.tx_count!) + 1n).toString(),
  });
  await expectRollupsExact(fx.db.knex);
  const deep = await registry.getSingleMetric('indexer_deep_reorgs_total')!.get();
  expect(deep.values).toEqual([{ labels: { chain: 'reorg-chain' }, value: 1 }]);
  const alert = lines.find((l) => l.level === 50);
  expect(alert).toMatchObject({
    chain: 'reorg-chain',
    msg: 'reorg deeper than the confirmation depth: records counted final were repaired',
  });
  expect(Number(alert!.depth)).toBeGreaterThan(4);
  // The cursor is back on the canonical chain, keyed by network and domain.
  const [cursor] = await rows(
    fx.db.knex,
    `select network, domain::text, block_hash from indexer_cursors where domain = 6`,
  );
  const head = await fx.chain.client.getBlock({ blockTag: 'latest' });
  expect(cursor).toEqual({ network: 'mainnet', domain: '6', block_hash: head.hash.toLowerCase() });
});
