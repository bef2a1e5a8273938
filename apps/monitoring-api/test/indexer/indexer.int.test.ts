/**
 * The transfer indexer end to end on two local anvil chains (domains 0 and 3) with the test
 * contracts, a fake Iris and a real database: a transfer appears pending with every derived field,
 * Iris completes it, the destination receive turns it to success, rollups include it, re-scans
 * change nothing, and a second indexer of the same chain stands by.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Hex } from 'viem';
import { pollAttestations } from '../../src/indexer/attestation.js';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { ChainLocks } from '../../src/indexer/lock.js';
import { serveTestApp, type ServedTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import {
  startAnvil,
  type Anvil,
  deployCctpChain,
  makeTransfer,
  receiveMessage,
  type CctpChain,
  startFakeIris,
  type FakeIris,
} from '@ctss/devnet';
import { chainConfig, indexerFor, syncAll } from './support/harness.js';

let anvils: Anvil[] = [];
let a: CctpChain;
let b: CctpChain;
let db: TestDatabase;
let api: TestApp;
let served: ServedTestApp | undefined;
/** The served app's base URL. */
let API: string;
let iris: FakeIris;
let irisClient: IrisClient;
let locks: ChainLocks;
let indexers: ChainIndexer[];
const RECIPIENT = '0x00000000000000000000000000000000000b0b01' as Hex;
const attestationOptions = { timeoutSeconds: 3600, recheckSeconds: 0 };

beforeAll(async () => {
  anvils = await Promise.all([startAnvil(8600, 31_000), startAnvil(8601, 31_003)]);
  [a, b] = await Promise.all([
    deployCctpChain(anvils[0]!.url, 0, 31_000),
    deployCctpChain(anvils[1]!.url, 3, 31_003),
  ]);
  // The monitoring API on the same database, so the feed and statistics are read over HTTP.
  served = await serveTestApp({ env: { CACHE_TTL_SECONDS: '0' } });
  ({ api, base: API } = served);
  db = api.db;
  iris = await startFakeIris(8620, { 0: a.url, 3: b.url });
  irisClient = new IrisClient(iris.url, 9);
  locks = new ChainLocks(db.database);
  indexers = [
    indexerFor(chainConfig('chain-a', a), db.database, locks),
    indexerFor(chainConfig('chain-b', b), db.database, locks),
  ];
}, 120_000);

afterAll(async () => {
  await locks?.close();
  await iris?.close();
  await served?.close();
  await Promise.all(anvils.map((x) => x.stop()));
});

/**
 * Asserts that the record of `txHash` carries the destination receipt `received`, with
 * `receiveAmount` (base units) and status success, and that the rollups are exact.
 */
const expectReceived = async (
  txHash: string,
  received: { transactionHash: string },
  receiveAmount: string,
) => {
  expect((await record(txHash))[0]).toMatchObject({
    destination_tx_hash: received.transactionHash.toLowerCase(),
    receive_amount: receiveAmount,
    destination_tx_status: 'success',
  });
  await expectRollupsExact(db.knex);
};

/** A CCTP v1 transfer from chain a to domain 3 (chain b) for RECIPIENT; amount and fee in base units. */
const v1Transfer = (amount: bigint, fee: bigint) =>
  makeTransfer(a, { version: 1, destinationDomain: 3, amount, fee, recipient: RECIPIENT });

const record = async (txHash: string) =>
  await rows(
    db.knex,
    `select id::text, source_tx_hash, destination_tx_hash, source_domain::text, destination_domain::text,
              sender, recipient, deposit_amount::text, receive_amount::text, relayer_fee::text,
              gas_drop_amount::text, is_gas_drop_in_native::text, max_fee::text, version::text,
              confirmed::text, has_source_tx_error::text, has_attestation_error::text,
              has_destination_tx_error::text, destination_tx_status, extract(epoch from created_at)::bigint::text as created,
              block_number::text, block_hash, cctp_nonce, attested::text
         from transactions where source_tx_hash = ?`,
    [txHash.toLowerCase()],
  );

describe('a v1 USDC-fee transfer from domain 0 to domain 3', () => {
  let txHash: Hex;
  let message: Hex;

  it('appears pending and unconfirmed with every derived field, then confirmed once deep enough', async () => {
    const sent = await makeTransfer(a, {
      version: 1,
      destinationDomain: 3,
      amount: 100_000_000n,
      fee: 200_000n,
      gasDrop: 1_000_000n,
      recipient: RECIPIENT,
    });
    txHash = sent.receipt.transactionHash;
    message = sent.message;
    await syncAll(indexers);
    const block = await a.client.getBlock({ blockNumber: sent.receipt.blockNumber });
    const [row, ...more] = await record(txHash);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      source_tx_hash: txHash.toLowerCase(),
      destination_tx_hash: null,
      source_domain: '0',
      destination_domain: '3',
      sender: a.userAccount.address.toLowerCase(),
      recipient: RECIPIENT,
      // 100 USDC transferred; 1 USDC gas drop pulled on top and kept apart.
      deposit_amount: '100000000',
      // burned = 100 USDC - (0.1 % + 0.2 USDC fee) until the destination says otherwise
      receive_amount: '99700000',
      relayer_fee: '300000',
      gas_drop_amount: '1000000',
      is_gas_drop_in_native: 'false',
      max_fee: '0',
      version: '1',
      confirmed: 'false',
      has_source_tx_error: 'false',
      has_attestation_error: 'false',
      has_destination_tx_error: 'false',
      destination_tx_status: 'pending',
      created: block.timestamp.toString(),
      block_number: sent.receipt.blockNumber.toString(),
      block_hash: sent.receipt.blockHash.toLowerCase(),
      cctp_nonce: '0',
      attested: 'false',
    });
    await a.client.request({ method: 'anvil_mine' as never, params: ['0x2'] as never });
    await syncAll(indexers);
    expect((await record(txHash))[0]!.confirmed).toBe('true');
    await expectRollupsExact(db.knex);
  });

  it('is attested once Iris completes it, and turns to success when the destination receives it', async () => {
    await pollAttestations(db.database, irisClient, attestationOptions);
    expect((await record(txHash))[0]!.attested).toBe('false');
    expect(iris.requests).toContain(`/v1/messages/0/${txHash.toLowerCase()}`);
    iris.complete(txHash);
    const pass = await pollAttestations(db.database, irisClient, attestationOptions);
    expect(pass.attested).toBe(1);
    expect((await record(txHash))[0]!.attested).toBe('true');
    const received = await receiveMessage(b, 1, message);
    await syncAll(indexers);
    await expectReceived(txHash, received, '99700000');
    const [stats] = await rows(
      db.knex,
      `select tx_count::text, volume::text, fee::text, relayer_fee::text from tx_domain_totals where network = 'mainnet' and source_domain = 0`,
    );
    expect(stats).toEqual({
      tx_count: '1',
      volume: '100000000',
      fee: '300000',
      relayer_fee: '300000',
    });
    const feed = (await (
      await fetch(`${API}/transactionsmainnet?addr_or_tx_hash=${txHash}`)
    ).json()) as { transactions: Record<string, unknown>[] };
    expect(feed.transactions).toEqual([
      expect.objectContaining({
        source_tx_hash: txHash.toLowerCase(),
        destination_tx_hash: received.transactionHash.toLowerCase(),
        deposit_amount: 100_000_000,
        receive_amount: 99_700_000,
        relayer_fee: 300_000,
        destination_tx_status: 'success',
        confirmed: true,
      }),
    ]);
    const volumes = (await (await fetch(`${API}/stats/mainnet/volumes`)).json()) as {
      total_volume: number;
    };
    expect(volumes.total_volume).toBe(100_000_000);
  });
});

describe('a v2 native-fee transfer through the pre-2025-09-02 event', () => {
  it('is decoded from the uint256 topic0, gets its nonce from Iris and the minted amount from the destination', async () => {
    const sent = await makeTransfer(a, {
      version: 2,
      legacy: true,
      destinationDomain: 3,
      amount: 50_000_000n,
      fee: 10n ** 15n,
      gasDrop: 2n * 10n ** 15n,
      isNative: true,
      maxFee: 5_000n,
      recipient: RECIPIENT,
    });
    const txHash = sent.receipt.transactionHash;
    await syncAll(indexers);
    expect((await record(txHash))[0]).toMatchObject({
      deposit_amount: '50000000',
      receive_amount: '49950000',
      // Only the basis-point share is in USDC; the native fee is in wei, not in relayer_fee.
      relayer_fee: '50000',
      gas_drop_amount: '2000000000000000',
      is_gas_drop_in_native: 'true',
      max_fee: '5000',
      version: '2',
      cctp_nonce: null,
    });
    iris.feeExecuted = 4_000n;
    iris.complete(txHash);
    await pollAttestations(db.database, irisClient, attestationOptions);
    const answer = (await (
      await fetch(`${iris.url}/v2/messages/0?transactionHash=${txHash}`)
    ).json()) as { messages: { message: Hex; eventNonce: string; status: string }[] };
    const [attested] = answer.messages;
    expect(attested!.status).toBe('complete');
    expect((await record(txHash))[0]!.cctp_nonce).toBe(attested!.eventNonce.toLowerCase());
    const received = await receiveMessage(b, 2, attested!.message);
    await syncAll(indexers);
    await expectReceived(txHash, received, '49946000');
  });
});

describe('a destination receipt indexed before its source transfer', () => {
  it('completes the record when the source transfer is written later', async () => {
    const sent = await v1Transfer(20_000_000n, 150_000n);
    const received = await receiveMessage(b, 1, sent.message);
    await syncAll([indexers[1]!]);
    expect(await record(sent.receipt.transactionHash)).toEqual([]);
    await syncAll([indexers[0]!]);
    await expectReceived(sent.receipt.transactionHash, received, '19830000');
  });
});

describe('idempotence and one writer per chain', () => {
  it('re-scanning from the start block changes no row', async () => {
    await a.client.request({ method: 'anvil_mine' as never, params: ['0x3'] as never });
    await syncAll(indexers);
    const before = await rows(db.knex, `select * from transactions order by id`);
    await db.knex('indexer_cursors').delete();
    const results = await syncAll(indexers);
    expect(results.map((r) => r.kind)).toEqual(['idle', 'idle']);
    expect(await rows(db.knex, `select * from transactions order by id`)).toEqual(before);
    await expectRollupsExact(db.knex);
  });

  it('adopts a cursor keyed by name only (written before cursors had a domain) and resumes from it', async () => {
    await syncAll(indexers);
    const [before] = await rows(
      db.knex,
      `select block_number::text, block_hash from indexer_cursors where network = 'mainnet' and domain = 0`,
    );
    await db
      .knex('indexer_cursors')
      .where({ network: 'mainnet', domain: 0 })
      .update({ network: null, domain: null, chain: 'chain-a' });
    const count = await rows(db.knex, `select count(*)::text as n from transactions`);
    const results = await syncAll(indexers);
    expect(results.map((r) => r.kind)).toEqual(['idle', 'idle']);
    expect(
      await rows(
        db.knex,
        `select chain, block_number::text, block_hash from indexer_cursors where network = 'mainnet' and domain = 0`,
      ),
    ).toEqual([{ chain: 'chain-a', ...before }]);
    expect(await rows(db.knex, `select count(*)::text as n from transactions`)).toEqual(count);
  });

  // The embedded PGlite serves every socket connection in one session, so its advisory locks are
  // shared: the one-writer guarantee needs a real server.
  const realServer = process.env.DATABASE_URL ? it : it.skip;
  realServer(
    'a second indexer of the same chain stands by while the first holds the lock, and takes over when it is gone',
    async () => {
      const otherLocks = new ChainLocks(db.database);
      try {
        const second = indexerFor(chainConfig('chain-a', a), db.database, otherLocks);
        expect((await second.tick()).kind).toBe('standby');
        await locks.close();
        // The server frees a closed session's locks shortly after the close.
        let kind = 'standby';
        for (let i = 0; i < 100 && kind === 'standby'; i++) {
          await new Promise((r) => setTimeout(r, 50));
          kind = (await second.tick()).kind;
        }
        expect(kind).not.toBe('standby');
      } finally {
        await otherLocks.close();
      }
    },
  );
});

describe('Iris faults', () => {
  it('a 429 pauses the client for Retry-After; the transfer is asked again later', async () => {
    const sent = await v1Transfer(5_000_000n, 100_000n);
    await syncAll(indexers);
    iris.failNext(1, 429);
    iris.complete(sent.receipt.transactionHash);
    const first = await pollAttestations(db.database, irisClient, attestationOptions);
    expect(first.errors).toBe(1);
    const started = Date.now();
    const second = await pollAttestations(db.database, irisClient, attestationOptions);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(second.attested).toBeGreaterThanOrEqual(1);
    expect((await record(sent.receipt.transactionHash))[0]!.attested).toBe('true');
  });

  it('a transfer unattested past the timeout gets has_attestation_error', async () => {
    const sent = await v1Transfer(7_000_000n, 100_000n);
    await syncAll(indexers);
    await db
      .knex('transactions')
      .where({ source_tx_hash: sent.receipt.transactionHash.toLowerCase() })
      .update({ created_at: db.knex.raw(`now() - interval '2 hours'`) });
    await pollAttestations(db.database, irisClient, attestationOptions);
    expect((await record(sent.receipt.transactionHash))[0]!.has_attestation_error).toBe('true');
    await expectRollupsExact(db.knex);
  });
});
