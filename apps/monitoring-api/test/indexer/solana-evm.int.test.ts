/**
 * End to end across families (docs/indexer.md "Solana"): the indexer loops (`runner.ts`) run an
 * EVM chain (anvil, CCTP domain 6, the stand-in contracts) and a local Solana cluster
 * (`@ctss/devnet` solana-cluster.ts, transactions built and signed with `@solana/kit`) against
 * one database served by the Monitoring API over HTTP, with the local Iris reading both.
 *
 * - A Solana transfer to the EVM chain appears pending (base58 sender), becomes confirmed once
 *   its slot is finalized, is attested, and turns `success` when the EVM chain receives the
 *   attested message; the statistics and the unique sender count include it, and the feed's
 *   `senders` filter finds it by its base58 sender.
 * - An EVM transfer into Solana turns `success` with the receive's signature and minted amount
 *   once the cluster shows Circle's `receive_message` of its message (found through the
 *   used-nonce account).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hexToBytes, toHex, type Hex } from 'viem';
import {
  attestedMessage,
  buildSolanaReceive,
  buildSolanaTransfer,
  deployCctpChain,
  evmRecipient32,
  makeTransfer,
  randomSolanaAddress,
  receiveMessage,
  solanaRecipient32,
  startAnvil,
  startFakeIris,
  startLocalSolana,
  type Anvil,
  type CctpChain,
  type FakeIris,
  type LocalSolana,
} from '@ctss/devnet';
import { SolanaChainConfigSchema } from '../../src/indexer/solana/config.js';
import { SolanaRpc } from '../../src/indexer/solana/rpc.js';
import { SolanaSource } from '../../src/indexer/solana/source.js';
import { until } from '../support/poll.js';
import { expectRollupsExact } from '../support/rollups.js';
import { getJson } from './support/follow.js';
import { chainConfig, indexerFor } from './support/harness.js';
import { startIndexedApi, type IndexedApi } from './support/indexed-api.js';

const EVM_RECIPIENT = '0x00000000000000000000000000000000000c0de6';

let anvil: Anvil;
let evm: CctpChain;
let cluster: LocalSolana;
let iris: FakeIris;
let indexed: IndexedApi | undefined;
let apiUrl: string;

beforeAll(async () => {
  anvil = await startAnvil(0, 31_060);
  evm = await deployCctpChain(anvil.url, 6, 31_060);
  cluster = await startLocalSolana();
  iris = await startFakeIris(0, { 6: evm.url }, { solanaRpcUrl: cluster.url });
  const solana = SolanaChainConfigSchema.parse({
    family: 'solana',
    name: 'solana',
    rpcUrls: [cluster.url],
    pollIntervalMs: 100,
  });
  indexed = await startIndexedApi({
    name: 'solana-evm-test',
    irisUrl: iris.url,
    irisPerSecond: 20,
    indexers: (db, locks) => [
      indexerFor(chainConfig('evm-6', evm, { pollIntervalMs: 100 }), db, locks),
      new SolanaSource(solana, new SolanaRpc(solana.rpcUrls, 5_000), db, locks),
    ],
  });
  apiUrl = indexed.base;
}, 120_000);

afterAll(async () => {
  await indexed?.close();
  await iris?.close();
  await cluster?.close();
  await anvil?.stop();
}, 60_000);

type FeedRecord = Record<string, unknown>;

const feed = async (query: string): Promise<FeedRecord[]> =>
  (await getJson<{ transactions: FeedRecord[] }>(`${apiUrl}/transactionsmainnet?${query}`))
    .transactions;

const stats = (path: string) => getJson<Record<string, unknown>>(`${apiUrl}/stats/mainnet/${path}`);

describe('Solana and EVM together', () => {
  it('a Solana transfer goes pending, confirmed, attested, then success on the EVM chain', async () => {
    const before = {
      wallets: (await stats('wallets')).unique_senders_count as number,
      transactions: (await stats('transactions')).total_transactions as number,
    };
    const transfer = await buildSolanaTransfer({
      version: 2,
      usdcAmount: 20_000_000n,
      usdcFee: 20_000n,
      destinationDomain: 6,
      recipient: evmRecipient32(EVM_RECIPIENT),
      maxFee: 0n,
      minFinalityThreshold: 2000,
    });
    const signature = transfer.transaction.signature;
    // A finalized slot before it starts the cursor, as a deployed program's history does.
    const genesis = await buildSolanaTransfer({
      version: 1,
      usdcAmount: 1_000_000n,
      usdcFee: 1_000n,
      destinationDomain: 6,
      recipient: evmRecipient32(EVM_RECIPIENT),
      cctpNonce: 1n,
    });
    cluster.land(genesis.transaction);
    cluster.finalize();
    const slot = cluster.land(transfer.transaction);
    const pending = await until(
      () => feed(`addr_or_tx_hash=${signature}`),
      (r) => r.length === 1,
      'the pending Solana record',
    );
    expect(pending[0]).toMatchObject({
      source_tx_hash: signature,
      source_domain: 5,
      destination_domain: 6,
      sender: transfer.user,
      recipient: EVM_RECIPIENT,
      confirmed: false,
      destination_tx_status: 'pending',
    });
    cluster.finalize(slot);
    await until(
      () => feed(`addr_or_tx_hash=${signature}`),
      (r) => r[0]?.confirmed === true,
      'the confirmed Solana record',
    );
    iris.complete(signature);
    const message = await until(
      () => attestedMessage(iris.url, 5, signature as Hex, 2),
      (m) => m !== undefined,
      'the attested Solana message',
    );
    const receipt = await receiveMessage(evm, 2, message!);
    const done = await until(
      () => feed(`addr_or_tx_hash=${signature}`),
      (r) => r[0]?.destination_tx_status === 'success',
      'the Solana transfer received on the EVM chain',
    );
    expect(done[0]).toMatchObject({
      destination_tx_hash: receipt.transactionHash.toLowerCase(),
      receive_amount: 19_980_000,
      confirmed: true,
    });
    // The feed's senders filter finds it by its base58 sender; the statistics include it.
    const bySender = await feed(`senders=${transfer.user}`);
    expect(bySender.map((r) => r.source_tx_hash)).toEqual([signature]);
    expect((await stats('wallets')).unique_senders_count).toBe(before.wallets + 2);
    expect((await stats('transactions')).total_transactions).toBe(before.transactions + 2);
    await expectRollupsExact(indexed!.api.db.knex);
  }, 120_000);

  it('an EVM transfer into Solana turns success when the cluster shows its receive', async () => {
    const owner = randomSolanaAddress();
    const tokenAccount = randomSolanaAddress();
    const { receipt } = await makeTransfer(evm, {
      version: 2,
      destinationDomain: 5,
      amount: 7_000_000n,
      fee: 7_000n,
      recipient: toHex(solanaRecipient32(tokenAccount)),
      solanaOwner: toHex(solanaRecipient32(owner)),
    });
    const hash = receipt.transactionHash.toLowerCase();
    const pending = await until(
      () => feed(`addr_or_tx_hash=${hash}`),
      (r) => r.length === 1,
      'the EVM record into Solana',
    );
    expect(pending[0]).toMatchObject({ destination_domain: 5, recipient: owner });
    iris.complete(hash);
    const message = await until(
      () => attestedMessage(iris.url, 6, hash as Hex, 2),
      (m) => m !== undefined,
      'the attested EVM message',
    );
    // The attestation poller stores the nonce Iris assigned before the receive can be matched.
    await until(
      () => feed(`addr_or_tx_hash=${hash}`),
      (r) => typeof r[0]?.nonce === 'string',
      'the attested nonce',
    );
    const receive = await buildSolanaReceive(2, hexToBytes(message!));
    cluster.land(receive.transaction);
    cluster.finalize();
    const done = await until(
      () => feed(`addr_or_tx_hash=${hash}`),
      (r) => r[0]?.destination_tx_status === 'success',
      'the receive on Solana',
    );
    expect(done[0]).toMatchObject({
      destination_tx_hash: receive.transaction.signature,
      receive_amount: Number(receive.minted),
    });
    await expectRollupsExact(indexed!.api.db.knex);
  }, 120_000);
});
