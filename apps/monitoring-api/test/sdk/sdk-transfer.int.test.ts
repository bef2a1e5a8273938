/**
 * `@ctss/sdk` end to end, as a widget would use it: quotes from the running Gas Quote API (its
 * built entry point as a process, compact packing for the origin as the deployed CashmereCCTP
 * rebuilds it), verified locally; transfers built for the deployed ABI and sent from viem wallets
 * on a local anvil chain (domain 0) with the devnet contracts, by allowance and by EIP-2612
 * permit; followed by trackTransfer over HTTP from the Monitoring API (in-process app and indexer)
 * to `success` while the test relays the attested messages onto chain B (domain 3). The
 * in-process app has no live feed (its stream path answers 404): trackTransfer polls the lookup.
 * The built Monitoring API (a child process on the same database) serves the live feed:
 * trackTransfer follows the stream, and its request metrics show one lookup only; when the
 * stream answers 503 (its one stream slot taken) it polls. Expectations
 * come from the contract's rules and the chains' balances. A Solana recipient's words are checked
 * against @solana/spl-token's derivation (a published output), and a tampered, expired or foreign
 * quote is refused with no transaction sent.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  QuoteRefusedError,
  createCtssClient,
  cashmereCctpAbi,
  verifyEcdsaQuote,
  type CtssClient,
  type TransferProgress,
} from '@ctss/sdk';
import { base58 } from '@scure/base';
import {
  bytesToHex,
  createWalletClient,
  decodeFunctionData,
  http,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  attestedMessage,
  contract,
  deployCctpChain,
  monitoringApiEntry,
  receiveMessage,
  startAnvil,
  startFakeIris,
  type Anvil,
  type CctpChain,
  type ChildService,
  type FakeIris,
} from '@ctss/devnet';
import { startListeningService } from '../support/child-service.js';
import { freePort } from '@ctss/test-support';
import { until } from '../support/poll.js';
import { openSse } from '../support/sse.js';
import { chainConfig, indexerFor } from '../indexer/support/harness.js';
import { startIndexedApi, type IndexedApi } from '../indexer/support/indexed-api.js';
import { startSnapshotGasQuoteApi } from '../support/gas-quote-api.js';

const RECIPIENT: Address = '0x00000000000000000000000000000000000c0de5';
/** anvil's default accounts 5 and 6 (well-known test keys): wallets with no allowance. */
const PERMIT_KEY: Hex = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const APPROVE_KEY: Hex = '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d17b8d88b1a7dd3f5b';
/** A Solana wallet and devnet USDC mint with the associated token account @solana/spl-token
 * `getAssociatedTokenAddress` derives for them (a published run). */
const SOLANA_OWNER = '5waJka9MrCgPFoLo3SQSjLDTGnkoDcwYYPnpk4YNJS6i';
const SOLANA_MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const SPL_TOKEN_ATA = 'HmBpVD6N1vuGvQpS8KrwWH6Tr8rSwXQBEDKn5VXW6yyw';
const DEADLINE_MS = 90_000;

let anvils: Anvil[] = [];
let a: CctpChain;
let b: CctpChain;
let indexed: IndexedApi | undefined;
let gas: ChildService | undefined;
let iris: FakeIris;
let ctss: CtssClient;
/** The built Monitoring API with its live feed, its base URL and metrics URL, and a client on it. */
let live: ChildService | undefined;
let liveUrl: string;
let liveMetricsUrl: string;
let ctssLive: CtssClient;

/**
 * Requests the live API answered so far, from its `monitoring_http_requests_total`: the transfer
 * lookups (`GET /transactionsmainnet/{hash}`, any status) and the streams refused with 503.
 */
async function liveRequests(): Promise<{ lookups: number; refused: number }> {
  const text = await (await fetch(`${liveMetricsUrl}/metrics`)).text();
  let lookups = 0;
  let refused = 0;
  for (const line of text.split('\n')) {
    const m = /^monitoring_http_requests_total\{(.*)\} ([0-9.e+]+)$/.exec(line);
    if (!m) continue;
    const labels = m[1]!;
    const route = /route="([^"]*)"/.exec(labels)?.[1] ?? '';
    if (!labels.includes('method="GET"')) continue;
    if (route === '/transactionsmainnet/stream') {
      if (labels.includes('status="503"')) refused += Number(m[2]);
    } else if (route.startsWith('/transactionsmainnet/:')) lookups += Number(m[2]);
  }
  return { lookups, refused };
}

/** Starts the Gas Quote API's built entry point on a free port; resolves with its base URL. */
async function startGasQuoteApi(): Promise<string> {
  const [child, url] = await startSnapshotGasQuoteApi(
    {
      QUOTE_PACKING_0: 'compact',
      // The feeder reads the transfer contract's fee for /routes (the prices stay the snapshot's).
      RPC_URL_0: a.url,
      TRANSFER_CONTRACT_0: a.cashmere,
    },
    DEADLINE_MS,
  );
  gas = child;
  return url;
}

beforeAll(async () => {
  anvils = await Promise.all([startAnvil(0, 31_120), startAnvil(0, 31_123)]);
  [a, b] = await Promise.all([
    deployCctpChain(anvils[0]!.url, 0, 31_120),
    deployCctpChain(anvils[1]!.url, 3, 31_123),
  ]);
  // A block every second: confirmations advance while the transfers wait.
  await Promise.all(anvils.map((x) => x.rpc('evm_setIntervalMining', [1])));
  const gasUrl = await startGasQuoteApi();
  iris = await startFakeIris(0, { 0: a.url, 3: b.url });
  iris.fastFeeBps = 1.3;
  const overrides = { pollIntervalMs: 100 };
  indexed = await startIndexedApi({
    name: 'sdk-transfer-test',
    irisUrl: iris.url,
    irisPerSecond: 9,
    indexers: (db, locks) => [
      indexerFor(chainConfig('sdk-a', a, overrides), db, locks),
      indexerFor(chainConfig('sdk-b', b, overrides), db, locks),
    ],
  });
  ctss = createCtssClient({ gasQuoteUrl: gasUrl, monitoringUrl: indexed.base, irisUrl: iris.url });
  const metricsPort = await freePort();
  [live, liveUrl] = await startListeningService(
    'monitoring-api',
    monitoringApiEntry('main.js'),
    {
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
      DATABASE_URL: indexed.api.db.url,
      DATABASE_READ_URLS: '',
      EMBEDDED_SEED: 'false',
      REDIS_URL: '',
      CACHE_TTL_SECONDS: '0',
      FEED_FIRST_PAGE_CACHE_SECONDS: '0',
      METRICS_PORT: String(metricsPort),
      // One stream slot: the test takes it to see the 503 fallback.
      STREAM_MAX_CLIENTS: '1',
    },
    DEADLINE_MS,
  );
  liveMetricsUrl = `http://127.0.0.1:${metricsPort}`;
  ctssLive = createCtssClient({ gasQuoteUrl: gasUrl, monitoringUrl: liveUrl, irisUrl: iris.url });
}, 240_000);

afterAll(async () => {
  await indexed?.close();
  await iris?.close();
  await gas?.stop();
  await live?.stop();
  await Promise.all(anvils.map((x) => x.stop()));
}, 60_000);

const usdcOf = (chain: CctpChain, owner: Address) =>
  chain.client.readContract({
    address: chain.usdc,
    abi: contract('TestUsdc').abi,
    functionName: 'balanceOf',
    args: [owner],
  }) as Promise<bigint>;

/** A wallet of `key` on chain A with 10 ETH and 10^12 USDC base units, and no allowance. */
async function freshWallet(key: Hex) {
  const account = privateKeyToAccount(key);
  await anvils[0]!.rpc('anvil_setBalance', [account.address, `0x${(10n ** 19n).toString(16)}`]);
  const hash = await a.deployer.writeContract({
    address: a.usdc,
    abi: contract('TestUsdc').abi,
    functionName: 'mint',
    args: [account.address, 10n ** 12n],
    account: a.deployer.account!,
    chain: a.chain,
  });
  await a.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return createWalletClient({ account, chain: a.chain, transport: http(a.url) });
}

/** Relays `hash`'s message onto chain B once the local Iris attests it (Iris attests at once). */
async function relay(hash: Hex, version: 1 | 2): Promise<void> {
  iris.complete(hash);
  const message = await until(
    () => attestedMessage(iris.url, 0, hash, version),
    (m) => m !== undefined,
    `an attestation for ${hash}`,
    { deadlineMs: DEADLINE_MS, pauseMs: 200 },
  );
  await receiveMessage(b, version, message!);
}

interface Case {
  readonly version: 1 | 2;
  readonly isNative: boolean;
  readonly finality?: 'fast' | 'standard';
  readonly approval: 'allowance' | 'permit' | 'approve';
  readonly key?: Hex;
  readonly amount: bigint;
  readonly gasDrop: bigint;
  readonly feeExecuted: bigint;
  /** The client that tracks the transfer (default: the in-process app's). */
  readonly tracker?: CtssClient;
}

async function transferToSuccess(c: Case): Promise<void> {
  const wallet = c.key
    ? await freshWallet(c.key)
    : createWalletClient({ account: a.userAccount, chain: a.chain, transport: http(a.url) });
  const sender = wallet.account.address;
  const publicClient = a.client;
  const origin = { publicClient, contract: a.cashmere };
  const { quote, costs } = await ctss.quote(
    { localDomain: 0, destinationDomain: 3, version: c.version, isNative: c.isNative },
    { amount: c.amount, gasDrop: c.gasDrop, ...(c.finality ? { finality: c.finality } : {}) },
    origin,
  );
  const plan = await ctss.buildTransfer(
    quote,
    {
      amount: c.amount,
      recipient: RECIPIENT,
      gasDrop: c.gasDrop,
      ...(c.finality ? { finality: c.finality } : {}),
    },
    origin,
  );
  const feeBps = (
    await publicClient.readContract({
      address: a.cashmere,
      abi: cashmereCctpAbi,
      functionName: 'state',
    })
  )[3];
  expect(plan.costs.contractFee).toBe((c.amount * BigInt(feeBps)) / 10_000n);
  // The contract fee came from /routes, which the feeder read from the contract.
  expect(quote.route).toMatchObject({ contractFeeBps: feeBps, contractFeeSource: 'contract' });
  expect(plan.costs.contractFeeSource).toBe('routes');
  // The cost quoted before a recipient is chosen is the plan's.
  expect(costs).toEqual(plan.costs);
  const usdcBefore = await usdcOf(a, sender);
  const ethBefore = await publicClient.getBalance({ address: sender });
  const minted = await usdcOf(b, RECIPIENT);
  iris.feeExecuted = c.feeExecuted;
  const sent = await ctss.sendTransfer(wallet, plan, {
    publicClient,
    contract: a.cashmere,
    approval: c.approval === 'allowance' ? 'auto' : c.approval,
  });
  expect(sent.approval).toBe(c.approval);
  const receipt = await publicClient.waitForTransactionReceipt({
    hash: sent.hash,
    pollingInterval: 100,
  });
  expect(receipt.status).toBe('success');
  // The wallet paid exactly what the plan said: USDC pulled, and the native value (plus gas).
  expect(usdcBefore - (await usdcOf(a, sender))).toBe(plan.costs.userPaysUsdc);
  const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
  const approveGas = sent.approveHash
    ? await publicClient
        .getTransactionReceipt({ hash: sent.approveHash })
        .then((r) => r.gasUsed * r.effectiveGasPrice)
    : 0n;
  expect(ethBefore - (await publicClient.getBalance({ address: sender }))).toBe(
    plan.costs.userPaysNative + gasPaid + approveGas,
  );

  const seen: TransferProgress[] = [];
  const tracking = (c.tracker ?? ctss).trackTransfer(sent.hash, {
    pollIntervalMs: 200,
    timeoutMs: DEADLINE_MS,
    onProgress: (p) => seen.push(p),
  });
  await relay(sent.hash, c.version);
  const result = await tracking;
  expect(result.status).toBe('success');
  expect(seen.map((p) => p.stage)).toEqual(['pending', 'confirmed', 'attested', 'received']);
  for (const p of seen) expect(p.at).toBeInstanceOf(Date);
  const got = (await usdcOf(b, RECIPIENT)) - minted;
  expect(got).toBe(plan.costs.burned - c.feeExecuted);
  expect(got).toBeGreaterThanOrEqual(plan.costs.recipientGetsMin);
  expect(result.record).toMatchObject({
    source_tx_hash: sent.hash.toLowerCase(),
    sender: sender.toLowerCase(),
    receive_amount: got,
    version: c.version,
    is_gas_drop_in_native: c.isNative,
    gas_drop_amount: c.gasDrop,
    max_fee: c.version === 2 ? plan.costs.circleFeeMax : 0n,
    // The fees the contract kept: the USDC relayer fee + the contract fee.
    relayer_fee: plan.costs.feesUsdc,
  });
  expect(typeof result.record.receive_amount).toBe('bigint');
}

describe('a transfer made with @ctss/sdk', () => {
  it('v2 fast, USDC fee and gas drop, by permit: tracked to success', async () => {
    await transferToSuccess({
      version: 2,
      isNative: false,
      finality: 'fast',
      approval: 'permit',
      key: PERMIT_KEY,
      amount: 120_000_000n,
      gasDrop: 1_000_000n,
      feeExecuted: 9_000n,
    });
  }, 180_000);

  it('v2 standard, native fee, by allowance: tracked to success', async () => {
    await transferToSuccess({
      version: 2,
      isNative: true,
      finality: 'standard',
      approval: 'allowance',
      amount: 30_000_000n,
      gasDrop: 10n ** 15n,
      feeExecuted: 0n,
    });
  }, 180_000);

  it('v1, USDC fee, by an approve first: tracked to success', async () => {
    await transferToSuccess({
      version: 1,
      isNative: false,
      approval: 'approve',
      key: APPROVE_KEY,
      amount: 40_000_000n,
      gasDrop: 300_000n,
      feeExecuted: 0n,
    });
  }, 180_000);

  it('v1, native fee, by permit: tracked to success', async () => {
    await transferToSuccess({
      version: 1,
      isNative: true,
      approval: 'permit',
      amount: 15_000_000n,
      gasDrop: 0n,
      feeExecuted: 0n,
    });
  }, 180_000);

  it('when the in-process app has no live feed (404), then trackTransfer polls the lookup', async () => {
    const stream = await fetch(`${ctss.monitoring.baseUrl}/transactionsmainnet/stream`);
    expect(stream.status).toBe(404);
  });

  it("v2 fast, USDC fee, by an approve: tracked through the built API's event stream, one lookup only", async () => {
    const before = await liveRequests();
    await transferToSuccess({
      version: 2,
      isNative: false,
      finality: 'fast',
      approval: 'approve',
      amount: 25_000_000n,
      gasDrop: 0n,
      feeExecuted: 0n,
      tracker: ctssLive,
    });
    const after = await liveRequests();
    // The stream carried pending -> confirmed -> attested -> success; the lookup ran once, at
    // the start (polling at 200 ms would have looked up many times).
    expect(after.lookups - before.lookups).toBe(1);
    expect(after.refused).toBe(before.refused);
  }, 180_000);

  it('when the built API answers the stream with 503, then trackTransfer polls the lookup', async () => {
    const holder = await openSse(`${liveUrl}/transactionsmainnet/stream`);
    expect(holder.status).toBe(200);
    try {
      const refused = await fetch(`${liveUrl}/transactionsmainnet/stream`);
      expect(refused.status).toBe(503);
      await refused.body?.cancel();
      const before = await liveRequests();
      await transferToSuccess({
        version: 2,
        isNative: true,
        finality: 'standard',
        approval: 'approve',
        amount: 35_000_000n,
        gasDrop: 0n,
        feeExecuted: 0n,
        tracker: ctssLive,
      });
      const after = await liveRequests();
      // Its stream was refused, then the lookup was polled.
      expect(after.refused - before.refused).toBe(1);
      expect(after.lookups - before.lookups).toBeGreaterThan(1);
    } finally {
      holder.close();
    }
  }, 180_000);

  it('to a Solana recipient: the associated token account and owner, byte for byte', async () => {
    const publicClient = a.client;
    const quote = await ctss.getQuote({
      localDomain: 0,
      destinationDomain: 5,
      version: 2,
      isNative: false,
    });
    const plan = await ctss.buildTransfer(
      quote,
      { amount: 50_000_000n, recipient: SOLANA_OWNER, solanaUsdcMint: SOLANA_MINT },
      { publicClient, contract: a.cashmere },
    );
    const wallet = createWalletClient({
      account: a.userAccount,
      chain: a.chain,
      transport: http(a.url),
    });
    const sent = await ctss.sendTransfer(wallet, plan, { publicClient, contract: a.cashmere });
    const tx = await publicClient.getTransaction({ hash: sent.hash });
    const { functionName, args } = decodeFunctionData({ abi: cashmereCctpAbi, data: tx.input });
    // The allowance or a permit, whichever the wallet needed: the transfer struct is the first argument.
    expect(functionName).toMatch(/^transferV2(WithPermit)?$/);
    const params = args[0] as { recipient: Hex; solanaOwner: Hex; destinationDomain: number };
    expect(params.recipient).toBe(bytesToHex(base58.decode(SPL_TOKEN_ATA)));
    expect(params.solanaOwner).toBe(bytesToHex(base58.decode(SOLANA_OWNER)));
    expect(params.destinationDomain).toBe(5);
    const receipt = await publicClient.waitForTransactionReceipt({ hash: sent.hash });
    expect(receipt.status).toBe('success');
  }, 120_000);

  it('refuses a tampered, an expired and a foreign-signed quote before any transaction', async () => {
    const nonceOf = () =>
      a.client.getTransactionCount({ address: a.userAccount.address, blockTag: 'pending' });
    const nonceBefore = await nonceOf();
    const request = { localDomain: 0, destinationDomain: 3, version: 2, isNative: false } as const;
    const routes = await ctss.gasQuote.routes({ localDomain: 0, destinationDomain: 3 });
    const raw = await ctss.gasQuote.ecdsaQuote(request);
    const tampered = { ...raw, fee: String(BigInt(raw.fee) - 1n) };
    await expect(
      verifyEcdsaQuote(tampered, request, routes.signers.ecdsaAddress as Address, 'compact'),
    ).rejects.toMatchObject({ code: 'WRONG_SIGNER' });
    const expired = ctss.getQuote(request, { now: () => Date.now() + 200_000 });
    await expect(expired).rejects.toBeInstanceOf(QuoteRefusedError);
    await expect(expired).rejects.toMatchObject({ code: 'EXPIRED' });
    const foreign = ctss.getQuote(request, {
      signers: { ecdsaAddress: privateKeyToAccount(PERMIT_KEY).address },
    });
    await expect(foreign).rejects.toMatchObject({ code: 'WRONG_SIGNER' });
    expect(await nonceOf()).toBe(nonceBefore);
  }, 60_000);
});
