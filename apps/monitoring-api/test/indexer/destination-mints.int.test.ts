/**
 * Destination mints in Circle's event order, on two local anvil chains (domains 0 and 3) with the
 * devnet stand-ins, a fake Iris and a real database.
 *
 * First the stand-ins are pinned to Circle's contracts: the (emitter, event) sequence of each
 * receipt is compared with the order read from circlefin/evm-cctp-contracts (v1
 * `src/MessageTransmitter.sol` `receiveMessage` calls `handleReceiveMessage` of
 * `src/TokenMessenger.sol`, whose `_mintAndWithdraw` has `src/TokenMinter.sol` `mint` the token
 * and then emits `MintAndWithdraw`; only after the handler returns does `receiveMessage` emit
 * `MessageReceived`. v2: `src/v2/MessageTransmitterV2.sol` `receiveMessage` the same, through
 * `src/v2/TokenMessengerV2.sol` `_handleReceiveMessage` and `src/v2/BaseTokenMessenger.sol`
 * `_mintAndWithdraw`, whose `src/v2/TokenMinterV2.sol` `mint` mints to the recipient, then the
 * fee to the fee recipient; the origin: `_depositForBurn` moves the deposit to the TokenMinter,
 * which burns it, then `sendMessage` emits `MessageSent`, then `DepositForBurn`) and
 * circlefin/stablecoin-evm `contracts/v1/FiatTokenV1.sol` (`mint`: Mint then Transfer; `burn`:
 * Burn then Transfer; `transferFrom`: Transfer).
 *
 * Then the indexer on those receipts: exact receive amounts for v1 and v2, a v2 fast transfer with
 * Circle's fee executed, a batch relayer's two receives in one transaction, and the explorer
 * fields moving from pending to attested to received, also over HTTP (lookup by either leg).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  decodeEventLog,
  keccak256,
  parseAbi,
  type Hex,
  type Log,
  type TransactionReceipt,
} from 'viem';
import {
  attestedMessage,
  deployCctpChain,
  makeTransfer,
  receiveMessage,
  receiveMessages,
  startAnvil,
  startFakeIris,
  type Anvil,
  type CctpChain,
  type FakeIris,
} from '@ctss/devnet';
import { pollAttestations } from '../../src/indexer/attestation.js';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { IrisClient } from '../../src/indexer/iris.js';
import type { ChainLocks } from '../../src/indexer/lock.js';
import { openChainLocks } from './support/lock-database.js';
import { serveTestApp, type ServedTestApp, type TestApp } from '../support/app.js';
import { expectRollupsExact, rows } from '../support/rollups.js';
import { chainConfig, indexerFor, syncAll } from './support/harness.js';

let anvils: Anvil[] = [];
let a: CctpChain;
let b: CctpChain;
let api: TestApp;
let served: ServedTestApp | undefined;
let base: string;
let iris: FakeIris;
let irisClient: IrisClient;
let locks: ChainLocks;
let indexers: ChainIndexer[];
let lockPool: ReturnType<typeof openChainLocks>;
const RECIPIENT = '0x00000000000000000000000000000000000b0b02' as Hex;
const OTHER = '0x00000000000000000000000000000000000b0b03' as Hex;
const attestationOptions = { timeoutSeconds: 3600, recheckSeconds: 0 };

beforeAll(async () => {
  anvils = await Promise.all([startAnvil(0, 31_040), startAnvil(0, 31_043)]);
  [a, b] = await Promise.all([
    deployCctpChain(anvils[0]!.url, 0, 31_040),
    deployCctpChain(anvils[1]!.url, 3, 31_043),
  ]);
  served = await serveTestApp({ env: { CACHE_TTL_SECONDS: '0' } });
  ({ api, base } = served);
  iris = await startFakeIris(0, { 0: a.url, 3: b.url });
  irisClient = new IrisClient(iris.url, 50);
  lockPool = openChainLocks(api.db);
  locks = lockPool.locks;
  indexers = [
    indexerFor(chainConfig('chain-a', a), api.db.database, locks),
    indexerFor(chainConfig('chain-b', b), api.db.database, locks),
  ];
}, 120_000);

afterAll(async () => {
  await lockPool?.close();
  await iris?.close();
  await served?.close();
  await Promise.all(anvils.map((x) => x.stop()));
});

/** Every event a stand-in emits, by signature (Circle's and FiatToken's deployed events). */
const ALL_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Mint(address indexed minter, address indexed to, uint256 amount)',
  'event Burn(address indexed burner, uint256 amount)',
  'event MessageSent(bytes message)',
  'event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)',
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)',
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
  'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative)',
]);

/** The receipt's logs as `Emitter.Event` in log order (emitters named by the chain's addresses). */
function sequence(chain: CctpChain, receipt: TransactionReceipt): string[] {
  const names = new Map<string, string>(
    [
      [chain.usdc, 'USDC'],
      [chain.transmitterV1, 'MessageTransmitter'],
      [chain.transmitterV2, 'MessageTransmitterV2'],
      [chain.messengerV1, 'TokenMessenger'],
      [chain.messengerV2, 'TokenMessengerV2'],
      [chain.minterV1, 'TokenMinter'],
      [chain.minterV2, 'TokenMinterV2'],
      [chain.cashmere, 'Cashmere'],
    ].map(([k, v]) => [k!.toLowerCase(), v!]),
  );
  return [...receipt.logs]
    .sort((x, y) => x.logIndex - y.logIndex)
    .map((log: Log) => {
      const { eventName } = decodeEventLog({ abi: ALL_EVENTS, data: log.data, topics: log.topics });
      return `${names.get(log.address.toLowerCase()) ?? log.address}.${eventName}`;
    });
}

/** The `Transfer`/`Mint`/`Burn` args of the token's logs, to check who holds and burns. */
function tokenMoves(chain: CctpChain, receipt: TransactionReceipt): string[] {
  return receipt.logs
    .filter((l) => l.address.toLowerCase() === chain.usdc.toLowerCase())
    .map((l) => {
      const d = decodeEventLog({ abi: ALL_EVENTS, data: l.data, topics: l.topics });
      const args = d.args as Record<string, unknown>;
      return `${d.eventName}(${Object.values(args).map(String).join(',')})`.toLowerCase();
    });
}

const transfer = (version: 1 | 2, amount: bigint, fee: bigint, extra: object = {}) =>
  makeTransfer(a, {
    version,
    destinationDomain: 3,
    amount,
    fee,
    recipient: RECIPIENT,
    maxFee: version === 2 ? 5_000n : 0n,
    ...extra,
  });

/** Completes the transfer on Iris, polls, and returns the attested message. */
async function attest(txHash: Hex, version: 1 | 2): Promise<Hex> {
  iris.complete(txHash);
  await pollAttestations(api.db.database, irisClient, attestationOptions);
  const message = await attestedMessage(iris.url, 0, txHash, version);
  if (!message) throw new Error(`Iris did not attest ${txHash}`);
  return message;
}

/** The record's indexer columns (timestamps as node-postgres parses them: Date). */
const record = async (txHash: string): Promise<Record<string, unknown>> =>
  (
    await rows(
      api.db.knex,
      `select receive_amount::text, destination_tx_hash, destination_tx_status, fee_executed::text,
              min_finality_threshold, message_hash, cctp_nonce, attested_at, received_at, updated_at
         from transactions where source_tx_hash = ?`,
      [txHash.toLowerCase()],
    )
  )[0]!;

const lookup = async (hash: string) => {
  const res = await fetch(`${base}/transactionsmainnet/${hash}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { transactions: Record<string, unknown>[] }).transactions;
};

const blockTimeIso = async (chain: CctpChain, receipt: TransactionReceipt) =>
  new Date(
    Number((await chain.client.getBlock({ blockHash: receipt.blockHash })).timestamp) * 1000,
  ).toISOString();

describe("the stand-ins emit Circle's events in Circle's order, from Circle's emitters", () => {
  it('v1: origin deposit, burn by the TokenMinter, MessageSent, DepositForBurn; destination mint, MintAndWithdraw, then MessageReceived', async () => {
    const sent = await transfer(1, 10_000_000n, 100_000n);
    expect(sequence(a, sent.receipt)).toEqual([
      'USDC.Transfer', // the user's deposit into the transfer contract
      'USDC.Transfer', // TokenMessenger._depositForBurn: transferFrom(sender -> TokenMinter)
      'USDC.Burn', // TokenMinter.burn -> FiatTokenV1.burn: Burn, then Transfer to 0
      'USDC.Transfer',
      'MessageTransmitter.MessageSent', // _sendDepositForBurnMessage -> sendMessage
      'TokenMessenger.DepositForBurn',
      'Cashmere.CashmereTransfer',
    ]);
    const moves = tokenMoves(a, sent.receipt);
    expect(moves[1]).toBe(
      `transfer(${a.cashmere},${a.minterV1},${10_000_000n - 110_000n})`.toLowerCase(),
    );
    expect(moves[2]).toBe(`burn(${a.minterV1},${10_000_000n - 110_000n})`.toLowerCase());
    const received = await receiveMessage(b, 1, sent.message);
    expect(sequence(b, received)).toEqual([
      'USDC.Mint', // TokenMinter.mint -> FiatTokenV1.mint: Mint, then Transfer from 0
      'USDC.Transfer',
      'TokenMessenger.MintAndWithdraw', // TokenMessenger._mintAndWithdraw
      'MessageTransmitter.MessageReceived', // MessageTransmitter.receiveMessage, after the handler
    ]);
    expect(tokenMoves(b, received)[0]).toBe(
      `mint(${b.minterV1},${RECIPIENT},${10_000_000n - 110_000n})`.toLowerCase(),
    );
  });

  it('v2 fast with a fee executed: the recipient mint, the fee mint, MintAndWithdraw(amount - fee, fee), then MessageReceived', async () => {
    const sent = await transfer(2, 20_000_000n, 80_000n, { minFinalityThreshold: 1000 });
    expect(sequence(a, sent.receipt)).toEqual([
      'USDC.Transfer',
      'USDC.Transfer', // BaseTokenMessenger._depositAndBurn: transferFrom(sender -> TokenMinterV2)
      'USDC.Burn',
      'USDC.Transfer',
      'MessageTransmitterV2.MessageSent', // TokenMessengerV2._depositForBurn -> sendMessage
      'TokenMessengerV2.DepositForBurn',
      'Cashmere.CashmereTransfer',
    ]);
    iris.feeExecuted = 3_000n;
    const message = await attest(sent.receipt.transactionHash, 2);
    iris.feeExecuted = 0n;
    const received = await receiveMessage(b, 2, message);
    expect(sequence(b, received)).toEqual([
      'USDC.Mint', // TokenMinterV2.mint(recipient, feeRecipient, amount - fee, fee): recipient first
      'USDC.Transfer',
      'USDC.Mint', // then the fee recipient
      'USDC.Transfer',
      'TokenMessengerV2.MintAndWithdraw', // BaseTokenMessenger._mintAndWithdraw
      'MessageTransmitterV2.MessageReceived', // MessageTransmitterV2.receiveMessage, after the handler
    ]);
    const moves = tokenMoves(b, received);
    expect(moves[0]).toBe(`mint(${b.minterV2},${RECIPIENT},19897000)`.toLowerCase());
    // The fee goes to the TokenMessengerV2's fee recipient (the stand-in's deployer).
    expect(moves[2]).toBe(`mint(${b.minterV2},${b.deployer.account!.address},3000)`.toLowerCase());
    // The stand-in enforces Circle's fee rules (TokenMessengerV2._validatedReceivedMessage).
    const tooHigh = await transfer(2, 20_000_000n, 80_000n, { minFinalityThreshold: 1000 });
    iris.feeExecuted = 6_000n; // above maxFee 5,000
    const overMax = await attest(tooHigh.receipt.transactionHash, 2);
    iris.feeExecuted = 0n;
    await expect(receiveMessage(b, 2, overMax)).rejects.toThrow(/reverted|Fee exceeds max fee/);
  });

  it('a batch relayer: mint, MessageReceived, mint, MessageReceived in one transaction', async () => {
    const one = await transfer(1, 3_000_000n, 100_000n);
    const two = await transfer(1, 4_000_000n, 100_000n);
    const received = await receiveMessages(b, 1, [one.message, two.message]);
    expect(sequence(b, received)).toEqual([
      'USDC.Mint',
      'USDC.Transfer',
      'TokenMessenger.MintAndWithdraw',
      'MessageTransmitter.MessageReceived',
      'USDC.Mint',
      'USDC.Transfer',
      'TokenMessenger.MintAndWithdraw',
      'MessageTransmitter.MessageReceived',
    ]);
    // Circle's receiveMessage marks the nonce used: a second receive of a message reverts.
    await expect(receiveMessage(b, 1, one.message)).rejects.toThrow();
  });
});

describe('the indexer takes each message its own mint', () => {
  it('v1: receive_amount is the mint, fee_executed 0, the hash and nonce from the origin', async () => {
    const sent = await transfer(1, 50_000_000n, 150_000n);
    const txHash = sent.receipt.transactionHash;
    await syncAll(indexers);
    const pending = await record(txHash);
    expect(pending).toMatchObject({
      receive_amount: '49800000',
      destination_tx_status: 'pending',
      fee_executed: null,
      min_finality_threshold: null,
      message_hash: keccak256(sent.message),
      attested_at: null,
      received_at: null,
    });
    const [before] = await lookup(txHash);
    expect(before).toMatchObject({
      nonce: pending.cctp_nonce,
      fee_executed: 0,
      received_at: null,
      attested_at: null,
    });
    const message = await attest(txHash, 1);
    const attested = await record(txHash);
    expect(attested.attested_at).not.toBeNull();
    expect((attested.updated_at as Date).getTime()).toBeGreaterThanOrEqual(
      (pending.updated_at as Date).getTime(),
    );
    const received = await receiveMessage(b, 1, message);
    await syncAll(indexers);
    const done = await record(txHash);
    expect(done).toMatchObject({
      receive_amount: '49800000',
      destination_tx_hash: received.transactionHash.toLowerCase(),
      destination_tx_status: 'success',
    });
    expect((done.updated_at as Date).getTime()).toBeGreaterThan(
      (attested.updated_at as Date).getTime(),
    );
    const [byDestination] = await lookup(received.transactionHash);
    expect(byDestination).toMatchObject({
      source_tx_hash: txHash.toLowerCase(),
      received_at: await blockTimeIso(b, received),
      attested_at: (attested.attested_at as Date).toISOString(),
      updated_at: (done.updated_at as Date).toISOString(),
      message_hash: keccak256(sent.message),
      fee_executed: 0,
      min_finality_threshold: null,
    });
    await expectRollupsExact(api.db.knex);
  });

  it('v2 fast: 20,000,000 sent, 19,900,000 burned, 3,000 fee executed, 19,897,000 received', async () => {
    const sent = await transfer(2, 20_000_000n, 80_000n, { minFinalityThreshold: 1000 });
    const txHash = sent.receipt.transactionHash;
    await syncAll(indexers);
    expect(await record(txHash)).toMatchObject({
      receive_amount: '19900000',
      min_finality_threshold: 1000,
      message_hash: null,
      cctp_nonce: null,
    });
    iris.feeExecuted = 3_000n;
    const message = await attest(txHash, 2);
    iris.feeExecuted = 0n;
    const attested = await record(txHash);
    expect(attested.message_hash).toBe(keccak256(message));
    expect(attested.cctp_nonce).toBe(`0x${message.slice(2 + 24, 2 + 88)}`);
    const received = await receiveMessage(b, 2, message);
    await syncAll(indexers);
    expect(await record(txHash)).toMatchObject({
      receive_amount: '19897000',
      fee_executed: '3000',
      destination_tx_status: 'success',
    });
    const [shown] = await lookup(txHash);
    expect(shown).toMatchObject({
      receive_amount: 19_897_000,
      fee_executed: 3_000,
      max_fee: 5_000,
      min_finality_threshold: 1000,
      nonce: attested.cctp_nonce,
      message_hash: keccak256(message),
      received_at: await blockTimeIso(b, received),
      destination_tx_hash: received.transactionHash.toLowerCase(),
    });
    await expectRollupsExact(api.db.knex);
  });

  it('v2 standard without a fee: receive_amount = burned, fee_executed 0', async () => {
    const sent = await transfer(2, 8_000_000n, 80_000n);
    const txHash = sent.receipt.transactionHash;
    await syncAll(indexers);
    const message = await attest(txHash, 2);
    await receiveMessage(b, 2, message);
    await syncAll(indexers);
    expect(await record(txHash)).toMatchObject({
      receive_amount: '7912000',
      fee_executed: '0',
      min_finality_threshold: 2000,
    });
  });

  it('a batch of two receives in one transaction: each record gets its own mint', async () => {
    const one = await transfer(2, 30_000_000n, 80_000n, { minFinalityThreshold: 1000 });
    const two = await transfer(2, 12_000_000n, 80_000n, {
      minFinalityThreshold: 1000,
      recipient: OTHER,
    });
    await syncAll(indexers);
    iris.feeExecuted = 2_500n;
    const m1 = await attest(one.receipt.transactionHash, 2);
    iris.feeExecuted = 1_200n;
    const m2 = await attest(two.receipt.transactionHash, 2);
    iris.feeExecuted = 0n;
    const received = await receiveMessages(b, 2, [m1, m2]);
    await syncAll(indexers);
    // 30,000,000 - (30,000 + 80,000) burned, less 2,500; 12,000,000 - (12,000 + 80,000), less 1,200.
    expect(await record(one.receipt.transactionHash)).toMatchObject({
      receive_amount: '29887500',
      fee_executed: '2500',
      destination_tx_hash: received.transactionHash.toLowerCase(),
    });
    expect(await record(two.receipt.transactionHash)).toMatchObject({
      receive_amount: '11906800',
      fee_executed: '1200',
      destination_tx_hash: received.transactionHash.toLowerCase(),
    });
    const both = await lookup(received.transactionHash);
    expect(both.map((r) => r.receive_amount).sort()).toEqual([11_906_800, 29_887_500]);
    const [received1, received2] = (await rows(
      api.db.knex,
      `select mint_amount::text, fee_executed::text from cctp_received where tx_hash = ? order by log_index`,
      [received.transactionHash.toLowerCase()],
    )) as { mint_amount: string; fee_executed: string }[];
    expect([received1, received2]).toEqual([
      { mint_amount: '29887500', fee_executed: '2500' },
      { mint_amount: '11906800', fee_executed: '1200' },
    ]);
    await expectRollupsExact(api.db.knex);
  });

  it('a batch of two v1 receives of the same recipient and amount still pairs each with its own mint', async () => {
    const one = await transfer(1, 6_000_000n, 100_000n);
    const two = await transfer(1, 6_000_000n, 100_000n);
    await syncAll(indexers);
    const received = await receiveMessages(b, 1, [one.message, two.message]);
    await syncAll(indexers);
    for (const t of [one, two]) {
      expect(await record(t.receipt.transactionHash)).toMatchObject({
        receive_amount: '5894000',
        destination_tx_hash: received.transactionHash.toLowerCase(),
      });
    }
    const minted = await rows(
      api.db.knex,
      `select mint_amount::text from cctp_received where tx_hash = ? order by log_index`,
      [received.transactionHash.toLowerCase()],
    );
    expect(minted).toEqual([{ mint_amount: '5894000' }, { mint_amount: '5894000' }]);
  });
});
