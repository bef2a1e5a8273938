/**
 * Reorgs on a local anvil chain (`anvil_reorg`): a reorg that drops a transfer removes its row and
 * its rollup contributions; one that re-includes it in another block leaves one row, with the new
 * block, confirmed once deep enough.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Hex } from 'viem';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
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
    fx.db.knex,
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
