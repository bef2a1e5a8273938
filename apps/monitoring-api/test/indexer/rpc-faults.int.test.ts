/**
 * RPC faults through a local proxy in front of anvil (429, 503, unanswered requests, "range too
 * large" for wide `eth_getLogs`), with a dead first RPC URL: the indexer retries, splits ranges,
 * falls back, and ends with every transfer written exactly once and no block skipped.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Hex } from 'viem';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import { makeTransfer } from '@ctss/devnet';
import { startFaultyRpc, type FaultyRpc } from './support/faulty-rpc.js';
import {
  chainConfig,
  indexerFor,
  startIndexedChain,
  stopIndexedChain,
  type IndexedChain,
} from './support/harness.js';

let fx: IndexedChain;
let proxy: FaultyRpc;
let indexer: ChainIndexer;
const RECIPIENT = '0x00000000000000000000000000000000000d0d01' as Hex;

beforeAll(async () => {
  fx = await startIndexedChain(8603, 31_007, 7);
  proxy = await startFaultyRpc(8612, fx.anvil.url, {
    every: 4,
    faults: ['429', '503', 'timeout'],
    maxLogRange: 3,
  });
  indexer = indexerFor(
    chainConfig('faulty-chain', fx.chain, {
      // Nothing listens on 8613: the fallback transport moves on to the proxy.
      rpcUrls: ['http://127.0.0.1:8613', proxy.url],
      maxBlockRange: 20,
      rpcTimeoutMs: 500,
      confirmations: 1,
    }),
    fx.db.database,
    fx.locks,
  );
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await stopIndexedChain(fx);
});

it('every transfer is written exactly once despite 429, 503, timeouts and range limits', async () => {
  const hashes: string[] = [];
  for (let i = 0; i < 8; i++) {
    const sent = await makeTransfer(fx.chain, {
      version: (i % 2) + 1 === 1 ? 1 : 2,
      destinationDomain: 0,
      amount: BigInt(1_000_000 * (i + 1)),
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    hashes.push(sent.receipt.transactionHash.toLowerCase());
    await fx.chain.client.request({ method: 'anvil_mine' as never, params: ['0x2'] as never });
  }
  const head = await fx.chain.client.getBlockNumber({ cacheTime: 0 });
  for (let round = 0; round < 500; round++) {
    try {
      const result = await indexer.tick();
      if (result.kind === 'idle' && result.head >= head) break;
    } catch {
      // A tick that failed wrote nothing; the next one scans the same range again.
    }
  }
  const written = await rows(
    fx.db.knex,
    `select source_tx_hash, count(*)::text as n from transactions group by 1 order by 1`,
  );
  expect(written).toEqual([...hashes].sort().map((h) => ({ source_tx_hash: h, n: '1' })));
  const [cursor] = await rows(fx.db.knex, `select block_number::text from indexer_cursors`);
  expect(BigInt(cursor?.block_number ?? '-1')).toBeGreaterThanOrEqual(head);
  expect(proxy.injected.range).toBeGreaterThan(0);
  expect(proxy.injected['429'] + proxy.injected['503'] + proxy.injected.timeout).toBeGreaterThan(0);
  await expectRollupsExact(fx.db.knex);
}, 120_000);
