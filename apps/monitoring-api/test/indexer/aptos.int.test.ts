/**
 * The Aptos source (docs/indexer.md "Sui and Aptos") against a local Aptos Indexer GraphQL API
 * and node REST API, with event data as the node writes Move values (addresses and bytes built
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
import { APTOS_INDEXER_SCHEMA, startFakeAptos, type FakeAptos } from './support/fake-aptos.js';
import { v1BurnMessage } from './support/move-data.js';

// The transfer module and USDC of cashmere-prod/cashmere-agent-sdk src/constants.ts; Circle's
// package addresses as an operator configures them (the values here are examples).
const MODULE = AccountAddress.from(
  '0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d',
);
const TMM = AccountAddress.from(
  '0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d',
);
const MT = AccountAddress.from(
  '0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772',
);
const USDC = AccountAddress.from(
  '0xbae207659db88bea0cbead6da0ed00aac12edcdda169e591cd41c94180b46f3b',
);
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
  const burned = t.amount - t.fee;
  const recipient: Hex = `0x${(++counter).toString(16).padStart(40, '0')}`;
  const { message } = v1BurnMessage({
    source: 9,
    destination: 3,
    nonce,
    sender: TMM.toString(),
    recipient: EVM_MESSENGER,
    burnToken: USDC.toString(),
    mintRecipient: recipient,
    amount: burned,
    messageSender: MODULE.toString(),
  });
  const tx = aptos.addTransaction([
    {
      type: `${MT.toString()}::message_transmitter::MessageSent`,
      data: { message: AptosHex.fromHexInput(message).toString() },
    },
    {
      type: `${TMM.toString()}::token_messenger::DepositForBurn`,
      data: {
        nonce: nonce.toString(),
        burn_token: USDC.toString(),
        amount: burned.toString(),
        depositor: MODULE.toString(),
        mint_recipient: AccountAddress.from(recipient, { maxMissingChars: 63 }).toString(),
        destination_domain: 3,
        destination_token_messenger: AccountAddress.from(EVM_MESSENGER, {
          maxMissingChars: 63,
        }).toString(),
        destination_caller: AccountAddress.ZERO.toString(),
      },
    },
    {
      type: `${MODULE.toString()}::transfer::CashmereTransfer`,
      data: {
        destination_domain: 3,
        nonce: counter.toString(),
        recipient: AccountAddress.from(recipient, { maxMissingChars: 63 }).toString(),
        solana_owner: AccountAddress.ZERO.toString(),
        user: t.user.toString(),
        amount: t.amount.toString(),
        gas_drop_amount: t.gasDrop.toString(),
        fee_is_native: false,
        cctp_nonce: nonce.toString(),
      },
    },
  ]);
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
