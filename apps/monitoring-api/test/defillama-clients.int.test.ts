/**
 * DefiLlama's two clients replayed against the app over real HTTP at the DEFAULT rate limits
 * (docs/api.md "Rate limits"; docs/decisions.md "D69. Monitoring API rate-limit defaults"): the
 * bridges-server job (48 hourly windows of `/transactionsmainnet`, `limit=50`, no API key, in its
 * current 12-way form and its first sequential form) and the dimension-adapters fee and
 * bridge-volume runners finish with every call a 200, no 429 and no window lost, and the records
 * they collect are exactly the mainnet records of the 48 hours. The replays follow the clients'
 * code as read (sources, commits and the exact arithmetic in @ctss/test-support/defillama-clients):
 * their timestamps, per-window queues, 200/500 ms delays, concurrency and retries. At the former
 * default of 120 a minute the same 12-way run gets 429s and loses windows.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseConfig } from '@ctss/server-kit';
import {
  peakRates,
  replayBridgesServer,
  replayFeeRunner,
  statusCounts,
  type ReplayReport,
} from '@ctss/test-support/defillama-clients';
import { ConfigSchema } from '../src/config.js';
import { createRng } from '../src/seed/rng.js';
import type { SeedTransaction } from '../src/seed/transactions.js';
import { aTransaction, insertAll } from './support/builders.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_NOW } from './support/deps.js';
import { listenOnLoopback, type Listening } from './support/listen.js';
import { rows } from './support/rollups.js';

const HOUR = 3_600;
/** The job's `dayjs().unix()`: the app's clock (2026-11-21T12:34:56Z, not on an hour). */
const NOW = Math.trunc(TEST_NOW.getTime() / 1000);
/**
 * About 130 mainnet transfers an hour over the 48 hours: three pages of 50 per hourly window,
 * so a run sends about 144 requests, more than the former default of 120 a minute.
 */
const PER_HOUR = 130;

/** The defaults of the app's own schema, as `pnpm start` gets them. */
const defaults = parseConfig(ConfigSchema, {});

/** An app at the given per-IP limit, served on a loopback port. */
async function serve(limit: number): Promise<{ t: TestApp; server: Listening }> {
  const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(limit) } });
  return { t, server: await listenOnLoopback(t.app) };
}

let t: TestApp;
let server: Listening;
/** Ids of the mainnet records created in [NOW - 48 h, NOW), ascending. */
let expectedIds: number[];

beforeAll(async () => {
  ({ t, server } = await serve(defaults.RATE_LIMIT_PER_MINUTE));
  await insertAll(t.db.database, busyHours());
  expectedIds = await idsOfTheHours(t);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** Ids of the mainnet records created in [NOW - 48 h, NOW) in `app`'s database, ascending. */
async function idsOfTheHours(app: TestApp): Promise<number[]> {
  const ids = await rows(
    app.db.knex,
    `select id::text as id from transactions
      where network = 'mainnet' and created_at >= to_timestamp(?) and created_at < to_timestamp(?)`,
    [NOW - 48 * HOUR, NOW],
  );
  return ids.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** The records of the 49 hours before NOW, about {@link PER_HOUR} an hour, some testnet. */
function busyHours(): SeedTransaction[] {
  const rng = createRng(2_026_112_6);
  return Array.from({ length: 49 * PER_HOUR }, () =>
    aTransaction({
      network: rng.chance(0.02) ? 'testnet' : 'mainnet',
      created_at: new Date((NOW - 49 * HOUR + rng.int(0, 49 * HOUR - 1)) * 1000),
      source_domain: rng.pick([0, 2, 3, 6]),
      deposit_amount: BigInt(rng.int(1_000_000, 9_000_000_000)),
      receive_amount: 900_000n,
    }),
  );
}

/** Asserts a replay finished: every call a 200, none lost. */
function expectComplete(report: ReplayReport): void {
  expect(statusCounts(report)).toEqual({ '200': report.calls.length });
  expect(report.lostWindows).toBe(0);
}

/** Asserts the records collected are exactly `ids` (those of the 48 hours), each once. */
function expectAllRecords(report: ReplayReport, ids: number[]): void {
  expect([...report.recordIds].sort((a, b) => a - b)).toEqual(ids);
}

describe('DefiLlama clients at the default rate limits', () => {
  it('the default is the documented 600 a minute per IP, 6000 per API key', () => {
    expect(defaults.RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(defaults.API_KEY_RATE_LIMIT_PER_MINUTE).toBe(6000);
  });

  it('bridges-server (12 windows at a time) and both fee runners finish with every call a 200', async () => {
    // Both DefiLlama jobs from one address at once: the worst case for one client IP.
    const runTimes = [NOW - (NOW % 86_400), NOW - 60 * 60 * 2.5];
    const [bridges, fees] = await Promise.all([
      replayBridgesServer(server.base, NOW, 'concurrent'),
      replayFeeRunner(server.base, runTimes),
    ]);
    expect(bridges.windows).toBe(48);
    expect(bridges.calls.length).toBeGreaterThan(120);
    expectComplete(bridges);
    expectAllRecords(bridges, expectedIds);
    expectComplete(fees);
    expect(fees.calls).toHaveLength(4);
    // 12 windows at a time send much of the run within a second or two.
    expect(peakRates(bridges).perSecond).toBeGreaterThan(12);
  }, 120_000);

  it('bridges-server in its first form (one window at a time, 200/500 ms apart) finishes too', async () => {
    // A fresh app: the run above used this address's window.
    const fresh = await serve(defaults.RATE_LIMIT_PER_MINUTE);
    try {
      await insertAll(fresh.t.db.database, busyHours());
      const report = await replayBridgesServer(fresh.server.base, NOW, 'sequential');
      expectComplete(report);
      expect(report.calls.length).toBeGreaterThan(120);
      expectAllRecords(report, await idsOfTheHours(fresh.t));
    } finally {
      await fresh.server.close();
      await fresh.t.close();
    }
  }, 240_000);

  it('at the former default of 120 a minute the 12-way run gets 429s and loses windows', async () => {
    const old = await serve(120);
    try {
      await insertAll(old.t.db.database, busyHours());
      const report = await replayBridgesServer(old.server.base, NOW, 'concurrent');
      expect(statusCounts(report)['429']).toBeGreaterThan(0);
      expect(report.lostWindows).toBeGreaterThan(0);
    } finally {
      await old.server.close();
      await old.t.close();
    }
  }, 240_000);
});
