/**
 * The transfer contract's percentage fee in `GET /routes` (docs/api.md "Routes"): the feeder reads
 * `state().feeBP` of the origin's CashmereCCTP (the devnet contract with the deployed ABI, on a
 * local anvil chain) as it reads the gas price, and /routes serves it per route with its source
 * and age; an on-chain change (`setFeeBP`, as the contract's admin makes it) shows up after the
 * feeder's next cycle; a failed read keeps the last value until it is older than the maximum
 * age, then the fields are null; an origin without a configured contract and RPC gets the bundled
 * snapshot's value in snapshot mode, labelled `snapshot`, and nothing in live mode.
 */
import { RoutesResponse } from '@ctss/domain-types';
import { createLogger } from '@ctss/server-kit';
import {
  DEVNET_FEE_BP,
  cashmereCctpAbi,
  deployCctpChain,
  startAnvil,
  type Anvil,
  type CctpChain,
} from '@ctss/devnet';
import { buildFeeder } from '../src/feeder/build.js';
import type { RefreshReport } from '../src/feeder/feeder.js';
import { loadSnapshot } from '../src/feeder/sources/snapshot.js';
import { buildTestApp, type TestApp } from './support/app.js';

/** A port nothing listens on: the price APIs fail at once (the contract fee does not need them). */
const CLOSED = 'http://127.0.0.1:9';

let anvil: Anvil;
let chain: CctpChain;
let t: TestApp | undefined;

beforeAll(async () => {
  anvil = await startAnvil(0, 31_337);
  chain = await deployCctpChain(anvil.url, 0, 31_337);
}, 120_000);
afterAll(async () => {
  await anvil?.stop();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function liveApp(contract: string): TestApp {
  return buildTestApp({
    env: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      RPC_URL_0: anvil.url,
      TRANSFER_CONTRACT_0: contract,
      PYTH_HERMES_URL: CLOSED,
      PRICE_FALLBACK_URL: CLOSED,
      UPSTREAM_TIMEOUT_MS: '2000',
    },
  });
}

function feederOf(app: TestApp, onCycle?: (outcome: RefreshReport | Error) => void) {
  return buildFeeder({
    config: app.config,
    registry: app.registry,
    store: app.store,
    kv: app.kv,
    params: app.deps.params,
    logger: createLogger({ name: 'contract-fee-test', level: 'silent' }),
    clock: app.clock,
    ...(onCycle ? { onCycle } : {}),
  });
}

async function routesFrom(base: string, localDomain: number) {
  const res = await fetch(`${base}/routes?localDomain=${localDomain}`);
  expect(res.status).toBe(200);
  return RoutesResponse.parse(await res.json()).routes;
}

async function setFeeBp(bps: number): Promise<void> {
  const hash = await chain.deployer.writeContract({
    address: chain.cashmere,
    abi: cashmereCctpAbi,
    functionName: 'setFeeBP',
    args: [bps],
    account: chain.deployer.account!,
    chain: chain.chain,
  });
  await chain.client.waitForTransactionReceipt({ hash });
}

describe('contractFeeBps in GET /routes', () => {
  it('serves the feeBP read from the origin contract, and an on-chain change after the next cycle', async () => {
    t = liveApp(chain.cashmere);
    const base = await t.listen();
    const reports: RefreshReport[] = [];
    const feeder = feederOf(t, (outcome) => {
      if (!(outcome instanceof Error)) reports.push(outcome);
    });
    const cyclesAfter = async (n: number) => {
      const deadline = Date.now() + 20_000;
      while (reports.length < n && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(reports.length).toBeGreaterThanOrEqual(n);
    };
    feeder.start(200);
    try {
      await cyclesAfter(1);
      expect(reports[0]).toMatchObject({ contractFeeUpdated: [0], contractFeeFailed: [] });
      const first = await routesFrom(base, 0);
      expect(first.length).toBeGreaterThan(0);
      for (const r of first) {
        expect(r).toMatchObject({
          contractFeeBps: DEVNET_FEE_BP,
          contractFeeSource: 'contract',
          contractFeeAgeSeconds: 0,
        });
      }
      // Origins without a configured contract: unknown, not a guess.
      for (const r of await routesFrom(base, 3)) {
        expect(r).toMatchObject({
          contractFeeBps: null,
          contractFeeSource: null,
          contractFeeAgeSeconds: null,
        });
      }

      await setFeeBp(25);
      // A cycle that started after the change was mined has finished.
      const seen = reports.length;
      await cyclesAfter(seen + 2);
      for (const r of await routesFrom(base, 0)) {
        expect(r).toMatchObject({ contractFeeBps: 25, contractFeeSource: 'contract' });
      }
    } finally {
      await feeder.stop();
      await setFeeBp(DEVNET_FEE_BP);
    }
  }, 60_000);

  it('keeps the last value read while it is fresh, with its age, then serves null', async () => {
    t = liveApp(chain.cashmere);
    const base = await t.listen();
    const feeder = feederOf(t);
    expect((await feeder.refresh()).contractFeeUpdated).toEqual([0]);
    t.clock.advance(7_000);
    for (const r of await routesFrom(base, 0)) {
      expect(r).toMatchObject({ contractFeeBps: DEVNET_FEE_BP, contractFeeAgeSeconds: 7 });
    }
    t.clock.advance(t.config.PRICE_MAX_AGE_SECONDS * 1000);
    t.store.invalidate();
    for (const r of await routesFrom(base, 0)) {
      expect(r).toMatchObject({
        contractFeeBps: null,
        contractFeeSource: null,
        contractFeeAgeSeconds: null,
      });
    }
    await feeder.stop();
  }, 60_000);

  it('reports a failed read (no contract at the address) and stores nothing', async () => {
    // The USDC token: code, but no state() of a transfer contract.
    t = liveApp(chain.usdc);
    const base = await t.listen();
    const feeder = feederOf(t);
    const report = await feeder.refresh();
    expect(report).toMatchObject({ contractFeeUpdated: [], contractFeeFailed: [0] });
    for (const r of await routesFrom(base, 0)) expect(r.contractFeeBps).toBeNull();
    await feeder.stop();
  }, 60_000);

  it('reads a configured contract in snapshot mode too, the snapshot default serving the other origins', async () => {
    t = buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '1000000',
        PRICE_SOURCE: 'snapshot',
        RPC_URL_0: anvil.url,
        TRANSFER_CONTRACT_0: chain.cashmere,
      },
    });
    const base = await t.listen();
    await setFeeBp(30);
    try {
      await feederOf(t).refresh();
      for (const r of await routesFrom(base, 0))
        expect(r).toMatchObject({ contractFeeBps: 30, contractFeeSource: 'contract' });
      for (const r of await routesFrom(base, 1))
        expect(r).toMatchObject({ contractFeeBps: 10, contractFeeSource: 'snapshot' });
    } finally {
      await setFeeBp(DEVNET_FEE_BP);
    }
  }, 60_000);

  it('serves the bundled snapshot value, labelled snapshot, without an RPC', async () => {
    t = buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    const base = await t.listen();
    const feeder = feederOf(t);
    expect(t.config.priceSource).toBe('snapshot');
    const report = await feeder.refresh();
    const snapshot = loadSnapshot();
    expect(report.contractFeeUpdated).toEqual(
      Object.keys(snapshot.contractFeeBps)
        .map(Number)
        .sort((a, b) => a - b),
    );
    for (const r of await routesFrom(base, 0)) {
      expect(r).toMatchObject({
        contractFeeBps: snapshot.contractFeeBps['0'],
        contractFeeSource: 'snapshot',
        contractFeeAgeSeconds: 0,
      });
    }
    // Solana (5) has no EVM transfer contract in the snapshot.
    for (const r of await routesFrom(base, 5)) expect(r.contractFeeBps).toBeNull();
    await feeder.stop();
  }, 60_000);
});
