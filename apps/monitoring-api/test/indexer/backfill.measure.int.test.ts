/**
 * Measurement, not a check (skipped unless MEASURE_BACKFILL is set, e.g. MEASURE_BACKFILL=2000):
 * the backfill rate of one chain indexer over N transfers on a local anvil chain, from an empty
 * cursor to the head, printed as transfers per second.
 */
import { afterAll, expect, it } from '@jest/globals';
import { signQuote } from '@ctss/signing';
import type { Hex } from 'viem';
import { ChainLocks } from '../../src/indexer/lock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import {
  DEVNET_QUOTE_PACKING,
  cashmereCctpAbi,
  deployCctpChain,
  quoteSigner,
  startAnvil,
  type Anvil,
} from '@ctss/devnet';
import { chainConfig, indexerFor, syncAll } from './support/harness.js';

const COUNT = Number(process.env.MEASURE_BACKFILL ?? 0);
const measure = COUNT > 0 ? it : it.skip;
let anvil: Anvil | undefined;
let db: TestDatabase | undefined;
let locks: ChainLocks | undefined;

afterAll(async () => {
  await locks?.close();
  await db?.drop();
  await anvil?.stop();
});

measure(
  'backfill rate',
  async () => {
    anvil = await startAnvil(8605, 31_011);
    const chain = await deployCctpChain(anvil.url, 11, 31_011);
    await anvil.rpc('evm_setAutomine', [false]);
    const abi = cashmereCctpAbi;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    const signature = signQuote(
      {
        localDomain: 11,
        destinationDomain: 0,
        fee: 100_000n,
        deadline,
        isNative: false,
        cctpVersion: 1,
      },
      DEVNET_QUOTE_PACKING,
      quoteSigner,
    );
    let nonce = await chain.client.getTransactionCount({
      address: chain.userAccount.address,
      blockTag: 'pending',
    });
    const generated = Date.now();
    for (let i = 0; i < COUNT; i++) {
      await chain.user.writeContract({
        address: chain.cashmere,
        abi,
        functionName: 'transfer',
        args: [
          {
            amount: 1_000_000n + BigInt(i),
            fee: 100_000n,
            deadline,
            gasDropAmount: 0n,
            destinationDomain: 0,
            recipient: `0x${'0'.repeat(24)}${'ab'.repeat(20)}` as Hex,
            solanaOwner: `0x${'0'.repeat(64)}`,
            isNative: false,
            signature,
          },
        ],
        account: chain.userAccount,
        chain: chain.chain,
        nonce: nonce++,
        gas: 500_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
      });
      if (i % 10 === 9) await anvil.rpc('evm_mine');
    }
    await anvil.rpc('evm_mine');
    const generatedMs = Date.now() - generated;
    db = await createTestDatabase();
    locks = new ChainLocks(db.database);
    const indexer = indexerFor(
      chainConfig('measure', chain, { maxBlockRange: 2000, confirmations: 0 }),
      db.database,
      locks,
    );
    const started = performance.now();
    await syncAll([indexer], 100_000);
    const seconds = (performance.now() - started) / 1000;
    const [{ n }] = (
      await db.knex.raw<{ rows: { n: string }[] }>('select count(*)::text as n from transactions')
    ).rows as [{ n: string }];
    expect(Number(n)).toBe(COUNT);
    process.stdout.write(
      `backfill: ${COUNT} transfers in ${seconds.toFixed(2)} s = ${(COUNT / seconds).toFixed(0)} transfers/s (generated in ${(generatedMs / 1000).toFixed(1)} s)\n`,
    );
  },
  1_800_000,
);
