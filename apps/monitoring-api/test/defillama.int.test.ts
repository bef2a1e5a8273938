/**
 * The DefiLlama endpoints over real HTTP and a real database (docs/api.md "DefiLlama adapters";
 * docs/decisions.md "D57. DefiLlama figures", "D68. DefiLlama windows of any alignment"): figures
 * over random windows of any length and alignment (fast-check) equal the same sums computed by
 * raw SQL over `transactions` and over the feed's records of the window, to the base unit, also
 * after updates and deletes; the fee runner's real windows (`[T - 86401, T)`, see
 * @ctss/test-support/defillama-clients for the source read) are answered; every bad input is a
 * 400 problem; answers are conditional.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Express } from 'express';
import fc from 'fast-check';
import { feeRunnerWindow, replayFeeRunner } from '@ctss/test-support/defillama-clients';
import { createRng } from '../src/seed/rng.js';
import type { SeedTransaction } from '../src/seed/transactions.js';
import { splitWindow } from '../src/defillama/service.js';
import { aTransaction, insertAll } from './support/builders.js';
import { startTestApp, type TestApp } from './support/app.js';
import { rows } from './support/rollups.js';
import { listenOnLoopback } from './support/listen.js';

const HOUR = 3_600;
const DAY = 86_400;
/** 2026-11-14T00:00:00Z: the first day of the random data (ten days). */
const START = 1_794_614_400;
const DAYS = 10;

let t: TestApp;
let app: Express;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  const rng = createRng(20_261_201);
  const records: SeedTransaction[] = [];
  for (let i = 0; i < 600; i++) {
    const deposit = BigInt(rng.int(1, 5_000_000_000)) * (rng.chance(0.05) ? 1_000_000n : 1n);
    const fee = BigInt(rng.int(0, 3_000_000));
    const relayer = fee === 0n ? 0n : BigInt(rng.int(0, Number(fee)));
    records.push(
      aTransaction({
        network: rng.chance(0.15) ? 'testnet' : 'mainnet',
        created_at: new Date((START + rng.int(0, DAYS * DAY - 1)) * 1000),
        source_domain: rng.pick([0, 1, 2, 3, 5, 6, 7]),
        deposit_amount: deposit,
        receive_amount: deposit > fee ? deposit - fee : 0n,
        relayer_fee: relayer,
        destination_tx_status: rng.pick(['pending', 'success', 'failed'] as const),
      }),
    );
  }
  // Records on and next to hour and day boundaries, where a window's partial hours begin and end.
  for (let i = 0; i < 200; i++) {
    const deposit = BigInt(rng.int(1, 900_000_000));
    const fee = BigInt(rng.int(0, 2_000_000));
    records.push(
      aTransaction({
        network: rng.chance(0.1) ? 'testnet' : 'mainnet',
        created_at: new Date(
          (START + rng.int(0, DAYS * 24) * HOUR + rng.pick([-2, -1, -1, 0, 0, 0, 1, 1, 2])) * 1000,
        ),
        deposit_amount: deposit,
        receive_amount: deposit > fee ? deposit - fee : 0n,
        relayer_fee: fee / 3n,
      }),
    );
  }
  await insertAll(t.db.database, records);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The figures of `[from, to)` recomputed from the raw rows, in base units. */
async function rawSums(from: number, to: number) {
  const [row] = await rows(
    t.db.knex,
    `select coalesce(sum(deposit_amount), 0)::text as volume,
            coalesce(sum(deposit_amount - receive_amount), 0)::text as fee,
            coalesce(sum(relayer_fee), 0)::text as relayer_fee
       from transactions
      where network = 'mainnet' and created_at >= to_timestamp(?) and created_at < to_timestamp(?)`,
    [from, to],
  );
  return row!;
}

const usd = (baseUnits: string): number => Number(BigInt(baseUnits)) / 1e6;

/** The figures of `[from, to)` summed over the feed's records of the window, base units. */
async function feedSums(from: number, to: number) {
  let deposit = 0n;
  let fee = 0n;
  let relayer = 0n;
  let cursor = '';
  for (;;) {
    const page = await request(app)
      .get('/transactionsmainnet')
      .query({ start_time: String(from), end_time: String(to), limit: '100', cursor })
      .expect(200);
    // Amounts as exact integers (they are below 2^53 here).
    for (const r of page.body.transactions as Record<string, number>[]) {
      deposit += BigInt(r.deposit_amount!);
      fee += BigInt(r.deposit_amount!) - BigInt(r.receive_amount!);
      relayer += BigInt(r.relayer_fee!);
    }
    if (!page.body.has_more) return { deposit, fee, relayer };
    cursor = page.body.next_cursor as string;
  }
}

/** Random hour-aligned windows over the data, from one hour to the whole span and beyond. */
function randomWindows(count: number): [number, number][] {
  const rng = createRng(7);
  const windows: [number, number][] = [
    [START - DAY, START + (DAYS + 1) * DAY],
    [START, START + DAY],
    [START + 5 * HOUR, START + 6 * HOUR],
    [START + 23 * HOUR, START + 25 * HOUR],
    [START + 3 * DAY, START + 3 * DAY + HOUR],
  ];
  while (windows.length < count) {
    const from = START + rng.int(-2, DAYS * 24) * HOUR;
    windows.push([from, from + rng.int(1, 24 * 4) * HOUR]);
  }
  return windows;
}

/**
 * A window bound: mostly near an hour of the data (on it, a second either side, or anywhere in
 * the hour), sometimes any second of the span or beyond it.
 */
const boundArb = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: -24, max: DAYS * 24 + 24 }),
      fc.oneof(fc.constantFrom(0, 1, -1, 2, 3599), fc.integer({ min: 0, max: HOUR - 1 })),
    )
    .map(([hour, offset]) => START + hour * HOUR + offset),
  fc.integer({ min: START - DAY, max: START + (DAYS + 1) * DAY }),
);

/** A window `[from, to)` of any alignment: from a second to the whole span. */
const windowArb = fc
  .tuple(boundArb, fc.oneof(boundArb, fc.integer({ min: 1, max: 3 * HOUR })))
  .map(([a, b]): [number, number] =>
    b < START - DAY ? [a, a + b] : [Math.min(a, b), Math.max(a, b)],
  )
  .filter(([from, to]) => from < to);

/** The figures of `[from, to)` as the fee endpoint answers them, from raw sums in base units. */
const expectedFees = (raw: Record<string, string>) => ({
  volumeUsd: usd(raw.volume!),
  feesUsd: usd(raw.fee!),
  revenuesUsd: usd(raw.relayer_fee!),
  protocolRevenueUsd: usd(raw.relayer_fee!),
});

describe('GET /defillama/fees and /defillama/bridge/volumes', () => {
  it('equal raw SQL sums over transactions for random hour-aligned windows', async () => {
    for (const [from, to] of randomWindows(20)) {
      const raw = await rawSums(from, to);
      const query = { from_timestamp: String(from), to_timestamp: String(to) };
      const fees = await request(app).get('/defillama/fees').query(query).expect(200);
      expect(fees.body).toEqual(expectedFees(raw));
      const volume = await request(app).get('/defillama/bridge/volumes').query(query).expect(200);
      expect(volume.body).toEqual({ volumeUsd: usd(raw.volume!) });
    }
  });

  it('equal raw SQL sums over transactions for random windows of any length and alignment', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, async ([from, to]) => {
        const raw = await rawSums(from, to);
        const query = { from_timestamp: String(from), to_timestamp: String(to) };
        const fees = await request(app).get('/defillama/fees').query(query).expect(200);
        expect(fees.body).toEqual(expectedFees(raw));
        const volume = await request(app).get('/defillama/bridge/volumes').query(query).expect(200);
        expect(volume.body).toEqual({ volumeUsd: usd(raw.volume!) });
      }),
      { numRuns: 80, seed: 68 },
    );
  });

  it('equal the sums of the feed records of random non-aligned windows, to the base unit', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, async ([from, to]) => {
        const sums = await feedSums(from, to);
        const res = await request(app)
          .get('/defillama/fees')
          .query({ from_timestamp: String(from), to_timestamp: String(to) })
          .expect(200);
        expect(res.body).toEqual({
          volumeUsd: Number(sums.deposit) / 1e6,
          feesUsd: Number(sums.fee) / 1e6,
          revenuesUsd: Number(sums.relayer) / 1e6,
          protocolRevenueUsd: Number(sums.relayer) / 1e6,
        });
      }),
      { numRuns: 20, seed: 69 },
    );
  });

  it("answer the fee runner's real windows [T - 86401, T) at midnight and at now - 2.5 h", async () => {
    // runAdapter.ts: toTimestamp = timestamp - 1; fromTimestamp = toTimestamp - 86400;
    // startTimestamp = fromTimestamp; endTimestamp = toTimestamp + 1.
    expect(feeRunnerWindow(START + DAY)).toEqual({
      from_timestamp: START + DAY - 1 - 86_400,
      to_timestamp: START + DAY,
    });
    // The daily job's UTC midnights over the data, and testAdapter.ts's `now - 2.5 h` for the
    // test clock (2026-11-21T12:34:56Z - 9000 s = 10:04:56, not on an hour).
    const runTimes = [
      ...Array.from({ length: DAYS + 1 }, (_, d) => START + d * DAY),
      Math.trunc(Date.parse('2026-11-21T12:34:56Z') / 1000) - 60 * 60 * 2.5,
    ];
    const server = await listenOnLoopback(app);
    try {
      const report = await replayFeeRunner(server.base, runTimes);
      expect(report.calls.map((c) => c.status)).toEqual(runTimes.flatMap(() => [200, 200]));
      expect(report.lostWindows).toBe(0);
      for (const [i, T] of runTimes.entries()) {
        const { from_timestamp, to_timestamp } = feeRunnerWindow(T);
        const raw = await rawSums(from_timestamp, to_timestamp);
        expect(report.figures[2 * i]).toEqual(expectedFees(raw));
        expect(report.figures[2 * i + 1]).toEqual({ volumeUsd: usd(raw.volume!) });
      }
    } finally {
      await server.close();
    }
  });

  it('equal the sums of the feed records of the same window', async () => {
    const from = START + 2 * DAY + 7 * HOUR;
    const to = START + 4 * DAY + 3 * HOUR;
    const { deposit, fee, relayer } = await feedSums(from, to);
    expect(deposit).toBeGreaterThan(0n);
    const res = await request(app)
      .get('/defillama/fees')
      .query({ from_timestamp: String(from), to_timestamp: String(to) })
      .expect(200);
    expect(res.body).toEqual({
      volumeUsd: Number(deposit) / 1e6,
      feesUsd: Number(fee) / 1e6,
      revenuesUsd: Number(relayer) / 1e6,
      protocolRevenueUsd: Number(relayer) / 1e6,
    });
  });

  it('follow updates and deletes of the rows (the rollup triggers keep them exact)', async () => {
    await t.db.knex.raw(
      `update transactions set receive_amount = receive_amount / 2, relayer_fee = relayer_fee + 1
        where id % 5 = 0`,
    );
    await t.db.knex.raw(
      `update transactions set created_at = created_at + interval '7 hours' where id % 7 = 0`,
    );
    await t.db.knex.raw(`delete from transactions where id % 11 = 0`);
    for (const [from, to] of randomWindows(15)) {
      const raw = await rawSums(from, to);
      const res = await request(app)
        .get('/defillama/fees')
        .query({ from_timestamp: String(from), to_timestamp: String(to) })
        .expect(200);
      expect(res.body.volumeUsd).toBe(usd(raw.volume!));
      expect(res.body.feesUsd).toBe(usd(raw.fee!));
      expect(res.body.revenuesUsd).toBe(usd(raw.relayer_fee!));
    }
  });

  it('answer an empty window with zeros', async () => {
    const res = await request(app)
      .get('/defillama/fees')
      .query({ from_timestamp: '0', to_timestamp: String(HOUR) })
      .expect(200);
    expect(res.body).toEqual({ volumeUsd: 0, feesUsd: 0, revenuesUsd: 0, protocolRevenueUsd: 0 });
  });

  it('carry a strong ETag, answer If-None-Match with 304, and cache closed windows longer', async () => {
    const path = `/defillama/bridge/volumes?from_timestamp=${START}&to_timestamp=${START + DAY}`;
    const first = await request(app).get(path).expect(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    // The window ended long before the test clock (2026-11-21T12:34:56Z).
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await request(app)
      .get(path)
      .set('If-None-Match', first.headers.etag!)
      .expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    const open = await request(app)
      .get('/defillama/fees')
      .query({ from_timestamp: String(1_795_305_600 - DAY), to_timestamp: '1795305600' })
      .expect(200);
    expect(open.headers['cache-control']).toBe('public, max-age=5');
  });

  it.each([
    ['no parameters', {}],
    ['no to_timestamp', { from_timestamp: String(START) }],
    ['no from_timestamp', { to_timestamp: String(START) }],
    ['from equal to to', { from_timestamp: String(START), to_timestamp: String(START) }],
    ['from after to', { from_timestamp: String(START + DAY), to_timestamp: String(START) }],
    ['negative', { from_timestamp: '-3600', to_timestamp: String(START) }],
    ['milliseconds', { from_timestamp: `${START}000`, to_timestamp: `${START + DAY}000` }],
    ['a fraction', { from_timestamp: `${START}.0`, to_timestamp: String(START + DAY) }],
    [
      'an unknown parameter',
      { from_timestamp: String(START), to_timestamp: String(START + DAY), network: 'mainnet' },
    ],
  ])('answer %s with a 400 INVALID_QUERY problem', async (_name, query) => {
    for (const path of ['/defillama/fees', '/defillama/bridge/volumes']) {
      const res = await request(app).get(path).query(query).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('INVALID_QUERY');
    }
  });
});

describe('splitWindow', () => {
  it('covers any window exactly with disjoint record, hour and day ranges in order', () => {
    fc.assert(
      fc.property(windowArb, ([from, to]) => {
        const r = splitWindow(from, to);
        const parts = [
          r.leadingRecords,
          r.leadingHours,
          r.days,
          r.trailingHours,
          r.trailingRecords,
        ];
        expect(parts.reduce((n, [a, b]) => n + (b - a), 0)).toBe(to - from);
        const nonEmpty = parts.filter(([a, b]) => b > a);
        expect(nonEmpty[0]![0]).toBe(from);
        expect(nonEmpty.at(-1)![1]).toBe(to);
        for (let i = 1; i < nonEmpty.length; i++) expect(nonEmpty[i]![0]).toBe(nonEmpty[i - 1]![1]);
        for (const [a, b] of [r.leadingHours, r.trailingHours]) {
          if (b > a) expect([a % HOUR, b % HOUR]).toEqual([0, 0]);
        }
        if (r.days[1] > r.days[0]) expect([r.days[0] % DAY, r.days[1] % DAY]).toEqual([0, 0]);
        // The records read are those of at most two partial hours.
        expect(r.leadingRecords[1] - r.leadingRecords[0]).toBeLessThan(2 * HOUR);
        if (r.leadingHours[1] > r.leadingHours[0]) {
          expect(r.leadingRecords[1] - r.leadingRecords[0]).toBeLessThan(HOUR);
          expect(r.trailingRecords[1] - r.trailingRecords[0]).toBeLessThan(HOUR);
        }
      }),
      { numRuns: 2_000, seed: 70 },
    );
  });
});
