/**
 * The Sui source (docs/indexer.md "Sui and Aptos") against a local Sui GraphQL RPC speaking Sui's
 * published schema (`@ctss/devnet/move`), with event bytes built by `@mysten/sui`'s bcs from the Move layouts of
 * cashmere-prod/contracts-prod `sui/sources/transfer.move` and circlefin/sui-cctp: the layout is
 * pinned; a backfill stopped mid-way and resumed by another process writes every transfer once;
 * a Sui transfer is attested by the local Iris and turns `success` when an anvil EVM chain
 * receives its message; an EVM transfer into Sui turns `success` when Sui shows the receive.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { parse, validate } from 'graphql';
import { keccak256, type Hex } from 'viem';
import {
  deployCctpChain,
  makeTransfer,
  receiveMessage,
  startAnvil,
  startFakeIris,
  type Anvil,
  type CctpChain,
  type FakeIris,
} from '@ctss/devnet';
import { createLogger } from '@ctss/server-kit';
import { Registry } from 'prom-client';
import { pollAttestations } from '../../src/indexer/attestation.js';
import { startIndexerRunner } from '../../src/indexer/runner.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { ChainLocks } from '../../src/indexer/lock.js';
import { SuiChainSchema } from '../../src/indexer/sui/config.js';
import { decodeCashmereTransfer } from '../../src/indexer/sui/events.js';
import {
  SUI_CHECKPOINT_QUERY,
  SUI_EVENTS_QUERY,
  SUI_HEAD_QUERY,
  SuiGraphqlReader,
} from '../../src/indexer/sui/graphql.js';
import { MoveChainIndexer } from '../../src/indexer/sui/move-source.js';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { until } from '../support/poll.js';
import {
  startFakeSui,
  SUI_CCTP_LAYOUTS,
  SUI_EXAMPLE_PACKAGES,
  suiSchema,
  suiTransferEvents,
  type FakeSui,
} from '@ctss/devnet/move';
import { chainConfig, indexerFor, syncAll } from './support/harness.js';

const { transfer: PKG, messageTransmitter: MT } = SUI_EXAMPLE_PACKAGES;
const { CashmereTransfer, MessageReceived } = SUI_CCTP_LAYOUTS;

let sui: FakeSui;
let db: TestDatabase;
let api: TestApp;
let anvil: Anvil;
let evm: CctpChain;
let iris: FakeIris;
const messagesOf = new Map<string, Hex[]>();
let cctpNonce = 500n;
let transferNonce = 0n;

const config = (overrides: Record<string, unknown> = {}) =>
  SuiChainSchema.parse({
    name: 'sui',
    graphqlUrl: sui.url,
    transferPackages: [PKG],
    tokenMessengerMinterPackage: SUI_EXAMPLE_PACKAGES.tokenMessengerMinter,
    messageTransmitterPackage: MT,
    startCheckpoint: 0,
    pollIntervalMs: 50,
    pageSize: 3,
    maxCheckpointRange: 5,
    ...overrides,
  });

const indexer = (locks: ChainLocks, overrides: Record<string, unknown> = {}) => {
  const c = config(overrides);
  return new MoveChainIndexer(
    {
      name: c.name,
      network: c.network,
      domain: c.domain,
      pollIntervalMs: c.pollIntervalMs,
      start: BigInt(c.startCheckpoint),
      maxRange: BigInt(c.maxCheckpointRange),
    },
    new SuiGraphqlReader(c),
    db.database,
    locks,
  );
};

/** A Sui transfer as the two-step deposit emits it: burn, message, then CashmereTransfer. */
function suiTransfer(t: {
  destination: number;
  recipient: Hex;
  user: string;
  amount: bigint;
  fee: bigint;
}) {
  const nonce = cctpNonce++;
  const { events, message, burned } = suiTransferEvents(SUI_EXAMPLE_PACKAGES, {
    ...t,
    destinationMessenger: evm.messengerV1,
    cctpNonce: nonce,
    transferNonce: ++transferNonce,
  });
  const tx = sui.addTransaction(events);
  messagesOf.set(tx.digest, [message]);
  return { tx, message, nonce, burned };
}

beforeAll(async () => {
  sui = await startFakeSui();
  // The monitoring API on the same database, so the feed's filters are read over HTTP.
  api = await startTestApp({ env: { CACHE_TTL_SECONDS: '0' } });
  db = api.db;
  anvil = await startAnvil(0, 31_100);
  evm = await deployCctpChain(anvil.url, 0, 31_100);
  iris = await startFakeIris(
    0,
    { 0: evm.url },
    { messagesByDomain: { 8: (h) => messagesOf.get(h) } },
  );
}, 180_000);

afterAll(async () => {
  await iris?.close();
  await anvil?.stop();
  await sui?.close();
  await api?.close();
});

describe('Sui layout and query', () => {
  it('decodes CashmereTransfer bytes serialized by Sui bcs, field by field in declared order', () => {
    const user = normalizeSuiAddress('0xabc');
    const bytes = CashmereTransfer.serialize({
      destination_domain: 5,
      nonce: 2n ** 200n + 7n,
      recipient: normalizeSuiAddress('0x11'),
      solana_owner: normalizeSuiAddress('0x22'),
      user,
      amount: 18_446_744_073_709_551_615n,
      gas_drop_amount: 3n,
      fee_is_native: true,
      cctp_nonce: 77n,
    }).toBase64();
    // 4 + 32 + 3 * 32 + 8 + 8 + 1 + 32 bytes.
    expect(Buffer.from(bytes, 'base64')).toHaveLength(181);
    expect(decodeCashmereTransfer(bytes)).toEqual({
      destination_domain: 5,
      nonce: 2n ** 200n + 7n,
      recipient: normalizeSuiAddress('0x11'),
      solana_owner: normalizeSuiAddress('0x22'),
      user,
      amount: 18_446_744_073_709_551_615n,
      gas_drop_amount: 3n,
      fee_is_native: true,
      cctp_nonce: 77n,
    });
  });

  it('sends queries that Sui’s published schema accepts', () => {
    const schema = suiSchema();
    for (const query of [SUI_EVENTS_QUERY, SUI_HEAD_QUERY, SUI_CHECKPOINT_QUERY]) {
      expect(validate(schema, parse(query))).toEqual([]);
    }
  });
});

describe('Sui backfill', () => {
  it('writes every transfer once when a process stops mid-backfill and another resumes', async () => {
    const user = normalizeSuiAddress('0x5ee');
    const made = Array.from({ length: 12 }, (_, i) => {
      sui.advance(i % 3); // some empty checkpoints between transfers
      return suiTransfer({
        destination: 0,
        recipient: `0x${(i + 1).toString(16).padStart(40, '0')}`,
        user,
        amount: 1_000_000n + BigInt(i),
        fee: 1_000n,
      });
    });
    const locksA = new ChainLocks(db.database);
    const first = indexer(locksA);
    expect((await first.tick()).kind).toBe('scanned');
    expect((await first.tick()).kind).toBe('scanned');
    await locksA.close(); // the process is gone: its lock session ends
    const locksB = new ChainLocks(db.database);
    const second = indexer(locksB);
    for (let i = 0; i < 100; i++) {
      const r = await second.tick();
      if (r.kind === 'idle') break;
      if (r.kind === 'standby') await new Promise((res) => setTimeout(res, 50));
    }
    await locksB.close();
    const rows = (await db
      .knex('transactions')
      .where({ source_domain: 8 })
      .orderBy('block_number')) as Record<string, unknown>[];
    expect(rows.map((r) => r.source_tx_hash)).toEqual(made.map((m) => m.tx.digest));
    const r0 = rows[0]!;
    expect(r0).toMatchObject({
      network: 'mainnet',
      destination_domain: '0',
      sender: user,
      recipient: '0x0000000000000000000000000000000000000001',
      deposit_amount: '1000000',
      receive_amount: '999000',
      relayer_fee: '1000',
      version: 1,
      cctp_nonce: made[0]!.nonce.toString(),
      message_hash: keccak256(made[0]!.message),
      log_index: 2,
      confirmed: true,
    });
    // The feed finds them by sender (0x + 64 hex) and by digest (base58, as Sui writes it).
    const bySender = await request(api.app).get(`/transactionsmainnet?senders=${user}&limit=50`);
    expect(bySender.status).toBe(200);
    expect((bySender.body as { transactions: unknown[] }).transactions).toHaveLength(12);
    const byDigest = await request(api.app).get(
      `/transactionsmainnet?addr_or_tx_hash=${made[3]!.tx.digest}`,
    );
    expect((byDigest.body as { transactions: Record<string, unknown>[] }).transactions).toEqual([
      expect.objectContaining({ source_tx_hash: made[3]!.tx.digest, source_domain: 8 }),
    ]);
  }, 180_000);
});

describe('Sui settlement', () => {
  it('attests a Sui transfer through Iris and completes it on the EVM destination', async () => {
    const recipient = '0x00000000000000000000000000000000000b0b08' as Hex;
    const made = suiTransfer({
      destination: 0,
      recipient,
      user: normalizeSuiAddress('0x5ee'),
      amount: 2_000_000n,
      fee: 2_000n,
    });
    const locks = new ChainLocks(db.database);
    try {
      const suiIndexer = indexer(locks);
      while ((await suiIndexer.tick()).kind !== 'idle');
      iris.complete(made.tx.digest);
      const pass = await pollAttestations(db.database, new IrisClient(iris.url, 50), {
        timeoutSeconds: 3600,
        recheckSeconds: 0,
        chain: { network: 'mainnet', domain: 8 },
      });
      expect(pass.attested).toBeGreaterThanOrEqual(1);
      const receipt = await receiveMessage(evm, 1, made.message);
      const evmIndexer = indexerFor(chainConfig('evm-a', evm), db.database, locks);
      await syncAll([evmIndexer]);
      const row = (await db
        .knex('transactions')
        .where({ source_domain: 8, source_tx_hash: made.tx.digest })
        .first()) as Record<string, unknown>;
      expect(row).toMatchObject({
        attested: true,
        destination_tx_status: 'success',
        destination_tx_hash: receipt.transactionHash.toLowerCase(),
        receive_amount: made.burned.toString(),
      });
    } finally {
      await locks.close();
    }
  }, 180_000);

  it('completes an EVM transfer into Sui when Sui shows the MessageReceived', async () => {
    const suiRecipient = normalizeSuiAddress('0x5a1') as Hex;
    const { receipt, message } = await makeTransfer(evm, {
      version: 1,
      destinationDomain: 8,
      amount: 3_000_000n,
      fee: 10_000n,
      recipient: suiRecipient,
    });
    const locks = new ChainLocks(db.database);
    try {
      const evmIndexer = indexerFor(chainConfig('evm-a', evm), db.database, locks);
      await syncAll([evmIndexer]);
      const nonce = BigInt(`0x${message.slice(2 + 24, 2 + 40)}`);
      const body = `0x${message.slice(2 + 232)}`;
      const tx = sui.addTransaction([
        {
          type: `${MT}::receive_message::MessageReceived`,
          bcs: MessageReceived.serialize({
            caller: normalizeSuiAddress('0xca11'),
            source_domain: 0,
            nonce,
            sender: normalizeSuiAddress(evm.messengerV1),
            message_body: [...Buffer.from(body.slice(2), 'hex')],
          }).toBytes(),
        },
      ]);
      const suiIndexer = indexer(locks);
      while ((await suiIndexer.tick()).kind !== 'idle');
      const row = (await db
        .knex('transactions')
        .where({ source_domain: 0, source_tx_hash: receipt.transactionHash.toLowerCase() })
        .first()) as Record<string, unknown>;
      expect(row).toMatchObject({
        recipient: suiRecipient,
        destination_domain: '8',
        destination_tx_status: 'success',
        destination_tx_hash: tx.digest,
      });
      // v1 mints the whole burned amount: the body's amount (@68).
      expect(row.receive_amount).toBe(BigInt(`0x${body.slice(2 + 136, 2 + 200)}`).toString());
    } finally {
      await locks.close();
    }
  }, 180_000);

  it('runs in the indexer loops beside an EVM chain: written, attested, then success', async () => {
    const made = suiTransfer({
      destination: 0,
      recipient: '0x00000000000000000000000000000000000b0b09',
      user: normalizeSuiAddress('0x5ee'),
      amount: 4_000_000n,
      fee: 4_000n,
    });
    iris.complete(made.tx.digest);
    const locks = new ChainLocks(db.database);
    const runner = startIndexerRunner({
      indexers: [indexer(locks), indexerFor(chainConfig('evm-a', evm), db.database, locks)],
      db: db.database,
      iris: new IrisClient(iris.url, 50),
      attestation: { timeoutSeconds: 3600, recheckSeconds: 0 },
      logger: createLogger({ name: 'sui-runner-test', level: 'warn' }),
      registry: new Registry(),
      attestationIntervalMs: 100,
    });
    const record = () =>
      db
        .knex('transactions')
        .where({ source_domain: 8, source_tx_hash: made.tx.digest })
        .first() as Promise<Record<string, unknown> | undefined>;
    try {
      await until(record, (r) => r?.attested === true, 'the Sui transfer attested');
      const receipt = await receiveMessage(evm, 1, made.message);
      const done = await until(
        record,
        (r) => r?.destination_tx_status === 'success',
        'the Sui transfer received on the EVM chain',
      );
      expect(done).toMatchObject({ destination_tx_hash: receipt.transactionHash.toLowerCase() });
      expect(runner.chains.map((c) => c.name)).toEqual(['sui', 'evm-a']);
    } finally {
      await runner.stop();
      await locks.close();
    }
  }, 180_000);
});
