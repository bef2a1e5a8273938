/**
 * The price feeder against local servers speaking the real protocols: EVM JSON-RPC
 * (eth_feeHistory, eth_gasPrice), Solana getRecentPrioritizationFees, Sui
 * suix_getReferenceGasPrice, Aptos /v1/estimate_gas_price, Pyth Hermes and the CoinGecko-style
 * fallback; then quotes priced from what it stored, the published messages, and the lock.
 */
import request from 'supertest';
import { FeesMessage, TokenPricesMessage, type SubscribeMessage } from '@ctss/domain-types';
import { createLogger, FenceLostError } from '@ctss/server-kit';
import { buildFeeder, FEEDER_LOCK_KEY } from '../src/feeder/build.js';
import { createFeederLock, feederLeaseSeconds } from '../src/feeder/lock.js';
import { LATEST_KEYS, UPDATES_CHANNEL } from '../src/channels.js';
import type { RefreshReport } from '../src/feeder/feeder.js';
import { DEFAULT_PYTH_FEED_IDS } from '../src/price-source-ids.js';
import { buildTestApp, ecdsaV2Quote, T0, type TestApp } from './support/app.js';
import {
  jsonRpc,
  qty,
  startFakeUpstream,
  type FakeUpstream,
  type Reply,
  type SeenRequest,
} from './support/fake-upstream.js';

const GWEI = 1_000_000_000n;
const nowSeconds = T0 / 1000;
/** The upstreams publish at the test clock's time (the app under test may have advanced it). */
const upstreamSeconds = () => Math.floor((t?.clock() ?? T0) / 1000);

/** Hermes prices (mantissa with expo -8) per symbol for the symbols Pyth has feeds for by default. */
const HERMES_PRICES: Record<string, bigint> = {
  ETH: 3100_00000000n,
  SOL: 160_50000000n,
  AVAX: 24_00000000n,
  SUI: 3_25000000n,
  APT: 5_75000000n,
  MON: 4000000n,
  HYPE: 31_00000000n,
};
const FALLBACK_USD: Record<string, number> = {
  ethereum: 3050.5,
  solana: 155.25,
  'avalanche-2': 23.5,
  'polygon-ecosystem-token': 0.21,
  sui: 3.1,
  aptos: 5.5,
  'sonic-3': 0.45,
  monad: 0.04,
  'sei-network': 0.28,
  hyperliquid: 29,
};

function hermes(
  overrides: { publishTime?: (symbol: string) => number; conf?: (symbol: string) => bigint } = {},
) {
  return (req: SeenRequest): Reply => {
    const ids = req.query.getAll('ids[]');
    const parsed = ids.flatMap((id) => {
      const symbol = Object.entries(DEFAULT_PYTH_FEED_IDS).find(([, f]) => f === id)?.[0];
      if (!symbol || HERMES_PRICES[symbol] === undefined) return [];
      const price = HERMES_PRICES[symbol];
      return [
        {
          id: id.slice(2),
          price: {
            price: price.toString(),
            conf: (overrides.conf?.(symbol) ?? price / 1000n).toString(),
            expo: -8,
            publish_time: overrides.publishTime?.(symbol) ?? upstreamSeconds() - 3,
          },
          ema_price: { price: price.toString(), conf: '1', expo: -8, publish_time: nowSeconds - 3 },
        },
      ];
    });
    return { status: 200, body: { binary: { encoding: 'hex', data: [] }, parsed } };
  };
}

function coingecko(req: SeenRequest): Reply {
  const ids = (req.query.get('ids') ?? '').split(',');
  return {
    status: 200,
    body: Object.fromEntries(
      ids
        .filter((id) => FALLBACK_USD[id] !== undefined)
        .map((id) => [id, { usd: FALLBACK_USD[id], last_updated_at: upstreamSeconds() - 10 }]),
    ),
  };
}

const evmMethods = {
  eth_feeHistory: (params: unknown[]) => {
    const count = Number(params[0]);
    return {
      oldestBlock: qty(100n),
      // count + 1 base fees: the last is the next block's base fee (12 gwei).
      baseFeePerGas: Array.from({ length: count + 1 }, (_, i) =>
        qty(10n * GWEI + (BigInt(i) * 2n * GWEI) / BigInt(count)),
      ),
      gasUsedRatio: Array.from({ length: count }, () => 0.5),
      // Priority fees 1..count gwei, one per block.
      reward: Array.from({ length: count }, (_, i) => [qty(BigInt(i + 1) * GWEI)]),
    };
  },
  eth_gasPrice: () => qty(25n * GWEI),
};

let evm: FakeUpstream;
let solana: FakeUpstream;
let sui: FakeUpstream;
let aptos: FakeUpstream;
let pyth: FakeUpstream;
let fallback: FakeUpstream;
let t: TestApp;

function upstreamEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    RPC_URL_ETHEREUM: evm.url,
    RPC_URL_3: evm.url,
    RPC_URL_SOLANA: solana.url,
    RPC_URL_SUI: sui.url,
    RPC_URL_9: `${aptos.url}/v1`,
    PYTH_HERMES_URL: pyth.url,
    PRICE_FALLBACK_URL: fallback.url,
    ...extra,
  };
}

function feederFor(app: TestApp, onCycle?: (outcome: RefreshReport | Error) => void) {
  return buildFeeder({
    ...(onCycle ? { onCycle } : {}),
    config: app.config,
    registry: app.registry,
    store: app.store,
    kv: app.kv,
    params: app.deps.params,
    logger: createLogger({ name: 'feeder-test', level: 'silent' }),
    clock: app.clock,
  });
}

beforeAll(async () => {
  evm = await startFakeUpstream(jsonRpc(evmMethods));
  solana = await startFakeUpstream(
    jsonRpc({
      getRecentPrioritizationFees: () =>
        Array.from({ length: 10 }, (_, i) => ({ slot: 1000 + i, prioritizationFee: i * 100 })),
    }),
  );
  sui = await startFakeUpstream(jsonRpc({ suix_getReferenceGasPrice: () => '750' }));
  aptos = await startFakeUpstream((req) =>
    req.path === '/v1/estimate_gas_price'
      ? {
          status: 200,
          body: {
            deprioritized_gas_estimate: 100,
            gas_estimate: 100,
            prioritized_gas_estimate: 150,
          },
        }
      : { status: 404, body: { message: 'not found' } },
  );
  pyth = await startFakeUpstream(hermes());
  fallback = await startFakeUpstream(coingecko);
});
afterAll(async () => {
  await Promise.all([evm, solana, sui, aptos, pyth, fallback].map((s) => s.close()));
});
beforeEach(() => {
  pyth.setHandler(hermes());
  evm.setHandler(jsonRpc(evmMethods));
  sui.setHandler(jsonRpc({ suix_getReferenceGasPrice: () => '750' }));
  for (const s of [evm, solana, sui, aptos, pyth, fallback]) s.seen.length = 0;
});
afterEach(async () => {
  await t.close();
});

describe('a refresh with every source answering', () => {
  it('stores each chain gas price in its documented unit', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    expect(t.config.priceSource).toBe('live');
    const report = await feederFor(t).refresh();
    expect(report).toMatchObject({ wrote: true, gasUpdated: [0, 3, 5, 8, 9], gasFailed: [] });
    // EVM: next base fee 12 gwei + median of priority fees 1..10 gwei (upper median: 6 gwei).
    await expect(t.store.gas(0)).resolves.toMatchObject({
      price: 18n * GWEI,
      decimals: 18,
      source: 'evm-rpc',
    });
    expect(
      evm.seen.find((r) => (r.body as { method: string }).method === 'eth_feeHistory')?.body,
    ).toMatchObject({
      params: ['0xa', 'latest', [50]],
    });
    // Solana: 75th percentile of 0..900 (index 7 = 700) + 5000 lamports over 400000 CU (12500 micro-lamports/CU).
    await expect(t.store.gas(5)).resolves.toMatchObject({ price: 13_200n, decimals: 15 });
    await expect(t.store.gas(8)).resolves.toMatchObject({ price: 750n, decimals: 9 });
    await expect(t.store.gas(9)).resolves.toMatchObject({ price: 150n, decimals: 8 });
    expect(aptos.seen[0]?.path).toBe('/v1/estimate_gas_price');
  });

  it('takes USD prices from Pyth and only the tokens Pyth lacks from the fallback', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const report = await feederFor(t).refresh();
    expect(report.usdUpdated).toEqual({
      ETH: 'pyth',
      SOL: 'pyth',
      AVAX: 'pyth',
      SUI: 'pyth',
      APT: 'pyth',
      MON: 'pyth',
      HYPE: 'pyth',
      POL: 'coingecko',
      S: 'coingecko',
      SEI: 'coingecko',
    });
    expect(report.usdMissing).toEqual([]);
    await expect(t.store.usd('ETH')).resolves.toMatchObject({
      price: 3100_00000000n,
      observedAt: (nowSeconds - 3) * 1000,
    });
    await expect(t.store.usd('POL')).resolves.toMatchObject({
      price: 21_000000n,
      source: 'coingecko',
    });
    expect(fallback.seen[0]?.query.get('ids')?.split(',').sort()).toEqual([
      'polygon-ecosystem-token',
      'sei-network',
      'sonic-3',
    ]);
  });

  it('prices quotes from the stored data: Ethereum to Arbitrum over live gas', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    await feederFor(t).refresh();
    const res = await ecdsaV2Quote(t, 3, 0, false);
    // 18 gwei x 200000 gas = 0.0036 ETH x 3100 USD = 11.16 USD, x1.2 = 13.392 USD.
    expect(res.body.fee).toBe('13392000');
    const native = await ecdsaV2Quote(t, 3, 0, true);
    // 13.392 USD / 3100 USD per ETH = 0.00432 ETH.
    expect(native.body.fee).toBe('4320000000000000');
  });

  it('applies GAS_PRICE_MULTIPLIER_BPS to every chain', async () => {
    t = buildTestApp({ env: upstreamEnv({ GAS_PRICE_MULTIPLIER_BPS: '15000' }) });
    await feederFor(t).refresh();
    await expect(t.store.gas(0)).resolves.toMatchObject({ price: 27n * GWEI });
    await expect(t.store.gas(8)).resolves.toMatchObject({ price: 1125n });
  });

  it('publishes the fees and tokenPrices messages and keeps the latest copies', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const received: SubscribeMessage[] = [];
    const unsubscribe = await t.kv.subscribe(UPDATES_CHANNEL, (m) =>
      received.push(JSON.parse(m) as SubscribeMessage),
    );
    await feederFor(t).refresh();
    for (let i = 0; i < 50 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await unsubscribe();
    expect(received.map((m) => m.type)).toEqual(['fees', 'tokenPrices']);
    const fees = FeesMessage.parse(JSON.parse((await t.kv.get(LATEST_KEYS.fees))!));
    const prices = TokenPricesMessage.parse(JSON.parse((await t.kv.get(LATEST_KEYS.tokenPrices))!));
    expect(prices.data['0']).toBe('3100');
    expect(prices.data['7']).toBe('0.21');
    // Arbitrum -> Ethereum in the matrix equals the quote endpoint's fee.
    expect(fees.data['3']?.fee['0']).toEqual({ native: '4320000000000000', usd: 13.392 });
    // Only chains with gas data are sources; Arbitrum's own redeem: 18 gwei x 200000 gas.
    expect(Object.keys(fees.data).sort()).toEqual(['0', '3', '5', '8', '9']);
    expect(fees.data['3']?.gas).toEqual({ native: '3600000000000000', usd: 11.16 });
  });
});

describe('when sources fail', () => {
  it('falls back to eth_gasPrice when eth_feeHistory is not supported', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    evm.setHandler(jsonRpc({ eth_gasPrice: evmMethods.eth_gasPrice }));
    await feederFor(t).refresh();
    await expect(t.store.gas(0)).resolves.toMatchObject({ price: 25n * GWEI });
  });

  it('uses the fallback for every token when Hermes answers 500', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    pyth.setHandler(() => ({ status: 500, body: { error: 'unavailable' } }));
    const report = await feederFor(t).refresh();
    expect(new Set(Object.values(report.usdUpdated))).toEqual(new Set(['coingecko']));
    await expect(t.store.usd('ETH')).resolves.toMatchObject({
      price: 3050_50000000n,
      source: 'coingecko',
    });
  });

  it('uses the fallback for a token whose Hermes price is stale or too uncertain', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    pyth.setHandler(
      hermes({
        publishTime: (s) => (s === 'SOL' ? nowSeconds - 121 : nowSeconds - 3),
        conf: (s) => (s === 'SUI' ? HERMES_PRICES.SUI! / 10n : 1000n), // 10% > 2% maximum
      }),
    );
    const report = await feederFor(t).refresh();
    expect(report.usdUpdated.SOL).toBe('coingecko');
    expect(report.usdUpdated.SUI).toBe('coingecko');
    expect(report.usdUpdated.ETH).toBe('pyth');
    await expect(t.store.usd('SOL')).resolves.toMatchObject({ price: 155_25000000n });
  });

  it('leaves a chain without fresh gas when its RPC fails, so its quotes are refused while others work', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const feeder = feederFor(t);
    await feeder.refresh();
    sui.setHandler(() => ({ status: 502, body: { error: 'bad gateway' } }));
    t.clock.advance(100_000);
    const report = await feeder.refresh();
    expect(report.gasFailed).toEqual([8]);
    t.clock.advance(30_000); // Sui's gas entry is now 130 s old; the rest 30 s.
    const toSui = await request(t.gas.app).get(
      '/getEcdsaSig_native?localDomain=0&destinationDomain=8&isV2=false&isNative=false',
    );
    expect(toSui.status).toBe(500);
    expect(toSui.body.code).toBe('MISSING_PRICE_DATA');
    await feeder.stop();
    const fromSui = await request(t.gas.app).get(
      '/getEd25519Sig_native?localDomain=8&destinationDomain=0&isNative=false',
    );
    expect(fromSui.status).toBe(200);
  });
});

describe('the single-writer lock', () => {
  it('lets only one of two feeders on the same store write, and the other after release', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const first = feederFor(t);
    const second = feederFor(t);
    expect((await first.refresh()).wrote).toBe(true);
    expect((await second.refresh()).wrote).toBe(false);
    expect((await first.refresh()).wrote).toBe(true); // the owner renews
    await first.stop();
    expect((await second.refresh()).wrote).toBe(true);
    await second.stop();
  });

  it('runs a cycle as soon as it starts, reports it, and releases the lock on stop', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const outcomes: (RefreshReport | Error)[] = [];
    const running = feederFor(t, (o) => outcomes.push(o));
    running.start(60_000);
    for (let i = 0; i < 200 && outcomes.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(outcomes[0]).toMatchObject({ wrote: true, gasFailed: [] });
    await running.stop();
    expect((await feederFor(t).refresh()).wrote).toBe(true);
  });

  it('fences a former owner: once its lease passed to another holder its writes are refused', async () => {
    t = buildTestApp({ env: upstreamEnv() });
    const former = createFeederLock(t.kv, FEEDER_LOCK_KEY, 30);
    const current = createFeederLock(t.kv, FEEDER_LOCK_KEY, 30);
    expect(await former.acquireOrRenew()).toBe('acquired');
    expect(await former.acquireOrRenew()).toBe('renewed');
    expect(await current.acquireOrRenew()).toBe('elsewhere');
    await former.write('latest:test', 'from-former', 60);
    // The former owner's lease runs out (it paused, or was cut off) and the other takes it.
    await t.kv.del(FEEDER_LOCK_KEY);
    expect(await current.acquireOrRenew()).toBe('acquired');
    await current.write('latest:test', 'from-current', 60);
    await expect(former.write('latest:test', 'late', 60)).rejects.toThrow(FenceLostError);
    await expect(
      t.store.putGas(0, { price: 1n, decimals: 18 }, t.clock(), 'late', former.fence),
    ).rejects.toThrow(FenceLostError);
    expect(await t.kv.get('latest:test')).toBe('from-current');
    expect(await t.kv.get('gas:0')).toBeNull();
  });

  it('refreshes at once when its heartbeat finds the lock and the prices gone from the store', async () => {
    // FEEDER_INTERVAL_SECONDS=1: a 2 s lease renewed every 667 ms; the cycle itself every 60 s.
    t = buildTestApp({ env: upstreamEnv({ FEEDER_INTERVAL_SECONDS: '1' }) });
    const outcomes: (RefreshReport | Error)[] = [];
    const running = feederFor(t, (o) => outcomes.push(o));
    running.start(60_000);
    const waitFor = async (n: number) => {
      for (let i = 0; i < 300 && outcomes.length < n; i++)
        await new Promise((r) => setTimeout(r, 10));
    };
    await waitFor(1);
    expect(outcomes[0]).toMatchObject({ wrote: true });
    // The store comes back empty (FLUSHALL, a restart without persistence).
    for (const key of [FEEDER_LOCK_KEY, 'gas:0', 'usd:ETH', LATEST_KEYS.fees]) await t.kv.del(key);
    const flushedAt = Date.now();
    await waitFor(2);
    expect(outcomes[1]).toMatchObject({ wrote: true });
    expect(Date.now() - flushedAt).toBeLessThan(2000);
    expect(await t.kv.get('gas:0')).not.toBeNull();
    expect(await t.kv.get(LATEST_KEYS.fees)).not.toBeNull();
    await running.stop();
  });

  it('leases a third of the refresh interval, at least 2 s, so a standby takes over within the interval', () => {
    t = buildTestApp({ env: upstreamEnv() });
    expect(feederLeaseSeconds(15)).toBe(5);
    expect(feederLeaseSeconds(1)).toBe(2);
    expect(feederLeaseSeconds(60)).toBe(20);
    // Lease plus one heartbeat (a third of it) stays within the interval for the default 15 s.
    expect(feederLeaseSeconds(15) * (4 / 3)).toBeLessThanOrEqual(15 / 2);
  });
});
