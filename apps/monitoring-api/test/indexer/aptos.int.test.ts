/**
 * The Aptos source (docs/indexer.md "Sui and Aptos") against a local Aptos Indexer GraphQL API
 * and node REST API (`@ctss/devnet/move`), with event data as the node writes Move values (addresses and bytes built
 * with `@aptos-labs/ts-sdk`) from the layouts of cashmere-prod/contracts-prod
 * `aptos/sources/transfer.move` and circlefin/aptos-cctp: the queries pass the Indexer schema; a
 * backfill stopped mid-way and resumed by another process writes every transfer once with the
 * derived fields; a transfer is attested by the local Iris; an EVM transfer into Aptos turns
 * `success` when Aptos shows the receive.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountAddress, Hex as AptosHex } from '@aptos-labs/ts-sdk';
import { keccak256, type Hex } from 'viem';
import { startFakeIris, type FakeIris } from '@ctss/devnet';
import { AptosChainSchema } from '../../src/indexer/aptos/config.js';
import {
  APTOS_EVENTS_QUERY,
  APTOS_HEAD_QUERY,
  AptosReader,
} from '../../src/indexer/aptos/reader.js';
import { parse, validate } from 'graphql';
import { pollAttestations } from '../../src/indexer/attestation.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { ChainLocks } from '../../src/indexer/lock.js';
import { MoveChainIndexer } from '../../src/indexer/sui/move-source.js';
import { writeBatch } from '../../src/indexer/store.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import {
  APTOS_EXAMPLE_ADDRESSES,
  APTOS_INDEXER_SCHEMA,
  aptosTransferEvents,
  startFakeAptos,
  v1BurnMessage,
  type FakeAptos,
} from '@ctss/devnet/move';

const {
  transferModule: MODULE,
  tokenMessengerMinter: TMM,
  messageTransmitter: MT,
  usdc: USDC,
} = APTOS_EXAMPLE_ADDRESSES;
const EVM_MESSENGER = '0x00000000000000000000000000000000000e0e01' as Hex;

let aptos: FakeAptos;
let db: TestDatabase;
let iris: FakeIris;
const messagesOf = new Map<string, Hex[]>();
let cctpNonce = 900n;
let counter = 0n;

const indexer = (locks: ChainLocks) => {
  const c = AptosChainSchema.parse({
    name: 'aptos',
    indexerUrl: aptos.indexerUrl,
    restUrl: aptos.restUrl,
    transferModules: [MODULE.toString()],
    tokenMessengerMinter: TMM.toString(),
    messageTransmitter: MT.toString(),
    startVersion: 0,
    pollIntervalMs: 50,
    pageSize: 2,
    maxVersionRange: 10,
  });
  return new MoveChainIndexer(
    {
      name: c.name,
      network: c.network,
      domain: c.domain,
      pollIntervalMs: c.pollIntervalMs,
      start: BigInt(c.startVersion),
      maxRange: BigInt(c.maxVersionRange),
    },
    new AptosReader(c),
    db.database,
    locks,
  );
};

const untilIdle = async (i: MoveChainIndexer) => {
  for (let n = 0; n < 200; n++) {
    const r = await i.tick();
    if (r.kind === 'idle') return;
    if (r.kind === 'standby') await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('did not catch up');
};

/** An Aptos transfer's events as `transfer` emits them: burn, message, then CashmereTransfer. */
function aptosTransfer(t: { user: AccountAddress; amount: bigint; fee: bigint; gasDrop: bigint }) {
  const nonce = cctpNonce++;
  const recipient: Hex = `0x${(++counter).toString(16).padStart(40, '0')}`;
  const { events, message, burned } = aptosTransferEvents(APTOS_EXAMPLE_ADDRESSES, {
    ...t,
    destination: 3,
    recipient,
    destinationMessenger: EVM_MESSENGER,
    cctpNonce: nonce,
    transferNonce: counter,
  });
  const tx = aptos.addTransaction(events);
  messagesOf.set(tx.hash, [message]);
  return { tx, message, nonce, burned, recipient };
}

beforeAll(async () => {
  aptos = await startFakeAptos();
  db = await createTestDatabase();
  iris = await startFakeIris(0, {}, { messagesByDomain: { 9: (h) => messagesOf.get(h) } });
}, 180_000);

afterAll(async () => {
  await iris?.close();
  await aptos?.close();
  await db?.drop();
});

describe('Aptos source', () => {
  it('sends queries that the Indexer schema accepts', () => {
    expect(validate(APTOS_INDEXER_SCHEMA, parse(APTOS_EVENTS_QUERY))).toEqual([]);
    expect(validate(APTOS_INDEXER_SCHEMA, parse(APTOS_HEAD_QUERY))).toEqual([]);
  });

  it('writes every transfer once across a restart mid-backfill, with the derived fields', async () => {
    // A special address (0xa) is written short by the SDK and by the node: stored as 0x + 64 hex.
    const user = AccountAddress.from('0xa');
    expect(user.toString()).toBe('0xa');
    const made = Array.from({ length: 9 }, (_, i) =>
      aptosTransfer({ user, amount: 5_000_000n + BigInt(i), fee: 2_500n, gasDrop: 100n }),
    );
    const locksA = new ChainLocks(db.database);
    const first = indexer(locksA);
    expect((await first.tick()).kind).toBe('scanned');
    expect((await first.tick()).kind).toBe('scanned');
    await locksA.close();
    const locksB = new ChainLocks(db.database);
    await untilIdle(indexer(locksB));
    await locksB.close();
    const rows = (await db
      .knex('transactions')
      .where({ source_domain: 9 })
      .orderBy('block_number')) as Record<string, unknown>[];
    expect(rows.map((r) => r.source_tx_hash)).toEqual(made.map((m) => m.tx.hash));
    expect(rows[0]).toMatchObject({
      destination_domain: '3',
      sender: user.toStringLong(),
      recipient: made[0]!.recipient,
      deposit_amount: '5000000',
      receive_amount: '4997500',
      relayer_fee: '2500',
      gas_drop_amount: '100',
      is_gas_drop_in_native: false,
      version: 1,
      cctp_nonce: made[0]!.nonce.toString(),
      message_hash: keccak256(made[0]!.message),
      block_number: made[0]!.tx.version,
      log_index: 2,
      confirmed: true,
    });
    // The transaction's time (microseconds), as the table keeps it (whole seconds).
    expect((rows[0]!.created_at as Date).getTime()).toBe(
      Number(BigInt(made[0]!.tx.timestamp) / 1_000_000n) * 1000,
    );

    // The local Iris attests it by the Aptos transaction hash.
    iris.complete(made[0]!.tx.hash);
    const pass = await pollAttestations(db.database, new IrisClient(iris.url, 50), {
      timeoutSeconds: 3600,
      recheckSeconds: 0,
      chain: { network: 'mainnet', domain: 9 },
    });
    expect(pass.attested).toBe(1);
  }, 180_000);

  it('completes a transfer into Aptos when Aptos shows the MessageReceived', async () => {
    // A v1 record from an EVM chain (domain 3) to Aptos, as the EVM indexer writes it.
    const nonce = 4242n;
    const { body } = v1BurnMessage({
      source: 3,
      destination: 9,
      nonce,
      sender: EVM_MESSENGER,
      recipient: TMM.toString(),
      burnToken: EVM_MESSENGER,
      mintRecipient: '0x0b0b',
      amount: 7_000_000n,
      messageSender: EVM_MESSENGER,
    });
    const evmTx = `0x${'ee'.repeat(32)}`;
    await writeBatch(db.database, {
      chain: { name: 'evm-c', network: 'mainnet', domain: 3 },
      expected: undefined,
      next: { number: 10n, hash: `0x${'10'.repeat(32)}` },
      transfers: [
        {
          network: 'mainnet',
          source_domain: 3,
          source_tx_hash: evmTx,
          log_index: 4,
          block_number: 10n,
          block_hash: `0x${'10'.repeat(32)}`,
          destination_domain: 9,
          sender: '0x00000000000000000000000000000000000000a1',
          recipient: AccountAddress.from('0xb0b', { maxMissingChars: 63 }).toStringLong(),
          deposit_amount: 7_010_000n,
          receive_amount: 7_000_000n,
          relayer_fee: 10_000n,
          gas_drop_amount: 0n,
          is_gas_drop_in_native: false,
          max_fee: 0n,
          version: 1,
          cctp_nonce: nonce.toString(),
          message_hash: null,
          min_finality_threshold: null,
          confirmed: true,
          created_at: new Date(),
        },
      ],
      received: [],
      safeBlock: 10n,
    });
    const tx = aptos.addTransaction([
      {
        type: `${TMM.toString()}::token_messenger::MintAndWithdraw`,
        data: { mint_recipient: '0xb0b', amount: '7000000', mint_token: USDC.toString() },
      },
      {
        type: `${MT.toString()}::message_transmitter::MessageReceived`,
        data: {
          caller: '0x1',
          source_domain: 3,
          nonce: nonce.toString(),
          sender: AccountAddress.from(EVM_MESSENGER, { maxMissingChars: 63 }).toString(),
          message_body: AptosHex.fromHexInput(body).toString(),
        },
      },
    ]);
    const locks = new ChainLocks(db.database);
    await untilIdle(indexer(locks));
    await locks.close();
    const row = (await db
      .knex('transactions')
      .where({ source_domain: 3, source_tx_hash: evmTx })
      .first()) as Record<string, unknown>;
    expect(row).toMatchObject({
      destination_tx_status: 'success',
      destination_tx_hash: tx.hash,
      receive_amount: '7000000',
    });
  }, 180_000);
});
