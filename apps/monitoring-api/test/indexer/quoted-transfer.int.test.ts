/**
 * End to end, with a quote from the running Gas Quote API (its built entry point as a process,
 * bundled price snapshot, signing with the key the stand-in transfer contracts trust): the test
 * fetches `GET /getEcdsaSig_native`, sends the transfer on chain A (domain 0) with it (the
 * contract checks the signature with ecrecover), and follows it over HTTP from the Monitoring
 * API while the indexer loops run (docs/indexer.md): pending and unconfirmed with every derived
 * field, confirmed once deep enough, success once the local Iris attests it and chain B (domain
 * 3) receives the attested message; the statistics move by exactly the transfer.
 * Expectations come from the quote, the contract's fee rules and the chains' balances and
 * blocks, not from the indexer.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { keccak256, type Address, type Hex } from 'viem';
import { rows } from '../support/rollups.js';
import {
  attestedMessage,
  cashmereCctpAbi,
  contract,
  deployCctpChain,
  devnetQuotePackingEnv,
  makeTransfer,
  receiveMessage,
  startAnvil,
  startFakeIris,
  withUser,
  type Anvil,
  type CctpChain,
  type ChildService,
  type FakeIris,
} from '@ctss/devnet';
import { startSnapshotGasQuoteApi } from '../support/gas-quote-api.js';
import { POLL_DEADLINE_MS, until } from '../support/poll.js';
import { getJson } from './support/follow.js';
import { chainConfig, indexerFor } from './support/harness.js';
import { startIndexedApi, type IndexedApi } from './support/indexed-api.js';

/** anvil's fourth default account (a well-known test key): the second sender. */
const SECOND_SENDER_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const RECIPIENT: Address = '0x00000000000000000000000000000000000c0de2';

let anvils: Anvil[] = [];
let a: CctpChain;
let b: CctpChain;
let indexed: IndexedApi | undefined;
let apiUrl: string;
let gas: ChildService | undefined;
let gasUrl: string;
let iris: FakeIris;

/** Starts the Gas Quote API's built entry point on a free port; resolves with its base URL. */
async function startGasQuoteApi(): Promise<string> {
  const [child, url] = await startSnapshotGasQuoteApi(
    // The packing the deployed transfer contract (and its devnet stand-in) verifies.
    devnetQuotePackingEnv([0, 3]),
    POLL_DEADLINE_MS,
  );
  gas = child;
  return url;
}

beforeAll(async () => {
  anvils = await Promise.all([startAnvil(0, 31_020), startAnvil(0, 31_023)]);
  [a, b] = await Promise.all([
    deployCctpChain(anvils[0]!.url, 0, 31_020),
    deployCctpChain(anvils[1]!.url, 3, 31_023),
  ]);
  gasUrl = await startGasQuoteApi();
  iris = await startFakeIris(0, { 0: a.url, 3: b.url });
  const overrides = { pollIntervalMs: 100 };
  indexed = await startIndexedApi({
    name: 'quoted-transfer-test',
    irisUrl: iris.url,
    irisPerSecond: 9,
    indexers: (db, locks) => [
      indexerFor(chainConfig('quoted-a', a, overrides), db, locks),
      indexerFor(chainConfig('quoted-b', b, overrides), db, locks),
    ],
  });
  apiUrl = indexed.base;
}, 180_000);

afterAll(async () => {
  await indexed?.close();
  await iris?.close();
  await gas?.stop();
  await Promise.all(anvils.map((x) => x.stop()));
}, 60_000);

/** The Gas Quote API's answer (docs/api.md "ECDSA quote"). */
interface Quote {
  fee: string;
  deadline: string;
  signature: Hex;
  isNative: boolean;
  cctpVersion: number;
}

async function fetchQuote(version: 1 | 2): Promise<Quote> {
  const res = await fetch(
    `${gasUrl}/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=${version === 2}&isNative=false`,
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const quote = (await res.json()) as Quote;
  expect(quote).toMatchObject({ isNative: false, cctpVersion: version });
  expect(quote.fee).toMatch(/^[1-9][0-9]*$/);
  expect(quote.signature).toMatch(/^0x[0-9a-f]{130}$/);
  return quote;
}

type FeedRecord = Record<string, unknown>;

/** The transfer's records in the mainnet feed, read over HTTP. */
const feed = async (txHash: Hex): Promise<FeedRecord[]> =>
  (
    await getJson<{ transactions: FeedRecord[] }>(
      `${apiUrl}/transactionsmainnet?addr_or_tx_hash=${txHash}`,
    )
  ).transactions;

/** The statistics a transfer of `sender` from domain 0 moves (docs/api.md "Volume statistics" ...). */
async function statistics(sender: Address) {
  const stats = (path: string) =>
    getJson<Record<string, unknown>>(`${apiUrl}/stats/mainnet/${path}`);
  const [volumes, userVolumes, hourly, fees, transactions, shares, wallets] = await Promise.all([
    stats('volumes'),
    stats(`volumes?senders=${sender}`),
    stats('volumes/hourly?limit=48'),
    stats('fees?period=hourly&limit=48'),
    stats('transactions'),
    stats('chain-shares'),
    stats('wallets'),
  ]);
  const sum = <K extends string>(list: unknown, key: K) =>
    (list as Record<K, number>[]).reduce((total, bucket) => total + bucket[key], 0);
  const share = (shares.chain_shares as { domain: number; amount: number }[]).find(
    (s) => s.domain === 0,
  );
  return {
    totalVolume: volumes.total_volume as number,
    userVolume: userVolumes.user_volume as number,
    hourlyVolumeUsd: sum(hourly.volumes, 'total_volume_usd'),
    feeUsd: sum(fees.fees, 'total_fee_usd'),
    relayerFeeUsd: sum(fees.fees, 'total_relayer_fee_usd'),
    transactions: transactions.total_transactions as number,
    domain0Volume: share?.amount ?? 0,
    uniqueSenders: wallets.unique_senders_count as number,
  };
}

const usdcBalance = (chain: CctpChain, owner: Address) =>
  chain.client.readContract({
    address: chain.usdc,
    abi: contract('TestUsdc').abi,
    functionName: 'balanceOf',
    args: [owner],
  }) as Promise<bigint>;

/** What the sender pays and chain B's recipient gets, for one quoted USDC-fee transfer. */
interface Case {
  readonly version: 1 | 2;
  /** The `amount` parameter of transfer / transferV2, base units. */
  readonly amount: bigint;
  /** USDC gas drop, base units. */
  readonly gasDrop: bigint;
  /** v2 maxFee, base units. */
  readonly maxFee: bigint;
  /** Circle's v2 fee the local Iris writes into the attested message, base units. */
  readonly feeExecuted: bigint;
}

/**
 * Fetches a quote, sends the transfer from `sender` with it and follows it through the feed
 * and the statistics.
 */
async function quotedTransfer(source: CctpChain, c: Case): Promise<void> {
  const sender = source.userAccount.address;
  const before = await statistics(sender);
  const quote = await fetchQuote(c.version);
  const fee = BigInt(quote.fee);
  const [, , , feeBP] = await source.client.readContract({
    address: source.cashmere,
    abi: cashmereCctpAbi,
    functionName: 'state',
  });
  const feeBps = BigInt(feeBP);
  const transfer = {
    version: c.version,
    destinationDomain: 3,
    amount: c.amount,
    fee,
    gasDrop: c.gasDrop,
    maxFee: c.maxFee,
    recipient: RECIPIENT,
    quote: { deadline: BigInt(quote.deadline), signature: quote.signature },
  } as const;
  // The signature covers the fee: one unit more and ecrecover yields another signer.
  await expect(makeTransfer(source, { ...transfer, fee: fee + 1n })).rejects.toThrow(
    /InvalidSignature/,
  );

  const paidBefore = await usdcBalance(source, sender);
  const { receipt, message: sentMessage } = await makeTransfer(source, transfer);
  const txHash = receipt.transactionHash;
  const block = await source.client.getBlock({ blockNumber: receipt.blockNumber });
  const paid = paidBefore - (await usdcBalance(source, sender));
  // The contract's rules (CctpTestChain.sol CashmereCCTP, as deployed): v1 pulls amount + gas drop and burns
  // amount - (bps share + quoted fee); v2 pulls amount and burns amount - (bps share + quoted
  // fee + gas drop). Either way the gas drop travels apart from the transfer.
  const bpsShare = (c.amount * feeBps) / 10_000n;
  const relayerFee = bpsShare + fee;
  const deposit = c.version === 1 ? c.amount : c.amount - c.gasDrop;
  const burned = deposit - relayerFee;
  expect(paid).toBe(deposit + c.gasDrop);
  expect(quote.deadline).toMatch(/^[0-9]+$/);
  expect(BigInt(quote.deadline)).toBeGreaterThanOrEqual(block.timestamp);

  const pending = {
    source_tx_hash: txHash.toLowerCase(),
    destination_tx_hash: null,
    gas_drop_tx_hash: null,
    source_domain: 0,
    destination_domain: 3,
    sender: sender.toLowerCase(),
    recipient: RECIPIENT,
    deposit_amount: Number(deposit),
    receive_amount: Number(burned),
    relayer_fee: Number(relayerFee),
    gas_drop_amount: Number(c.gasDrop),
    is_gas_drop_in_native: false,
    max_fee: c.version === 2 ? Number(c.maxFee) : 0,
    version: c.version,
    confirmed: false,
    has_source_tx_error: false,
    has_attestation_error: false,
    has_destination_tx_error: false,
    destination_tx_status: 'pending',
    created_at: new Date(Number(block.timestamp) * 1000).toISOString(),
    attested_at: null,
    received_at: null,
    updated_at: expect.any(String),
    message_hash: c.version === 1 ? keccak256(sentMessage) : null,
    nonce: c.version === 1 ? expect.stringMatching(/^[0-9]+$/) : null,
    fee_executed: c.version === 1 ? 0 : null,
    min_finality_threshold: c.version === 2 ? 2000 : null,
  };
  // Automine: no block follows the transfer until one is mined, so it stays above the depth.
  const [first, ...others] = await until(
    () => feed(txHash),
    (r) => r.length > 0,
    'the record',
  );
  expect(others).toEqual([]);
  expect(first).toEqual({ id: expect.any(Number), ...pending });
  const id = first!.id;

  // Depth 2 (harness chainConfig): two more blocks confirm it.
  await anvils[0]!.rpc('anvil_mine', ['0x2']);
  const [confirmed] = await until(
    () => feed(txHash),
    (r) => r[0]?.confirmed === true,
    'confirmation',
  );
  expect(confirmed).toEqual({ id, ...pending, confirmed: true });

  iris.feeExecuted = c.feeExecuted;
  iris.complete(txHash);
  const message = await until(
    () => attestedMessage(iris.url, 0, txHash, c.version),
    (m) => m !== undefined,
    'the attestation',
  );
  // The indexer's own Iris pass marks it attested (v2: with the nonce Iris assigned, which the
  // destination receipt is matched on).
  await until(
    () =>
      rows(indexed!.api.db.knex, `select attested from transactions where id = ?`, [Number(id)]),
    (r) => String(r[0]?.attested) === 'true',
    'the indexer to record the attestation',
  );
  const receivedBefore = await usdcBalance(b, RECIPIENT);
  const received = await receiveMessage(b, c.version, message!);
  const minted = (await usdcBalance(b, RECIPIENT)) - receivedBefore;
  expect(minted).toBe(burned - (c.version === 2 ? c.feeExecuted : 0n));
  const [done] = await until(
    () => feed(txHash),
    (r) => r[0]?.destination_tx_status === 'success',
    'the destination receipt',
  );
  expect(done).toEqual({
    id,
    ...pending,
    confirmed: true,
    destination_tx_hash: received.transactionHash.toLowerCase(),
    destination_tx_status: 'success',
    receive_amount: Number(minted),
    attested_at: expect.any(String),
    received_at: new Date(
      Number((await b.client.getBlock({ blockHash: received.blockHash })).timestamp) * 1000,
    ).toISOString(),
    message_hash: keccak256(message!),
    nonce: expect.any(String),
    fee_executed: Number(c.version === 2 ? c.feeExecuted : 0n),
  });

  const after = await statistics(sender);
  const usd = (units: bigint) => Number(units) / 1e6;
  expect(after.totalVolume - before.totalVolume).toBe(Number(deposit));
  expect(after.userVolume - before.userVolume).toBe(Number(deposit));
  expect(after.domain0Volume - before.domain0Volume).toBe(Number(deposit));
  expect(after.transactions - before.transactions).toBe(1);
  expect(after.uniqueSenders - before.uniqueSenders).toBe(1);
  expect(after.hourlyVolumeUsd - before.hourlyVolumeUsd).toBeCloseTo(usd(deposit), 6);
  expect(after.relayerFeeUsd - before.relayerFeeUsd).toBeCloseTo(usd(relayerFee), 6);
  expect(after.feeUsd - before.feeUsd).toBeCloseTo(usd(deposit - minted), 6);
}

describe('a transfer priced and signed by the running Gas Quote API', () => {
  it('serves quotes signed by the key the transfer contracts trust', async () => {
    const health = await getJson<{ ecdsaSigner: string; priceSource: string }>(`${gasUrl}/health`);
    const [signer] = await a.client.readContract({
      address: a.cashmere,
      abi: cashmereCctpAbi,
      functionName: 'state',
    });
    expect(health).toMatchObject({ ecdsaSigner: signer, priceSource: 'snapshot' });
  });

  it('CCTP v2 with a USDC gas drop: pending, confirmed, then success, and counted', async () => {
    await quotedTransfer(a, {
      version: 2,
      amount: 250_000_000n,
      gasDrop: 1_500_000n,
      maxFee: 20_000n,
      feeExecuted: 7_000n,
    });
  }, 180_000);

  it('CCTP v1 from another sender: pending, confirmed, then success, and counted', async () => {
    await quotedTransfer(await withUser(a, SECOND_SENDER_KEY), {
      version: 1,
      amount: 40_000_000n,
      gasDrop: 300_000n,
      maxFee: 0n,
      feeExecuted: 0n,
    });
  }, 180_000);
});
