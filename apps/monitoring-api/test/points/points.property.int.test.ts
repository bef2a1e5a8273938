/**
 * Property: for random transfer records and random points rules, the points job's stored points
 * equal an independent computation in plain TypeScript (bigint) over the same records; an
 * incremental run after inserts, reorg deletions and status rewrites equals a rebuild; two jobs
 * at once give the same totals; a deleted record takes its points back.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import type { TransferNetwork } from '@ctss/domain-types';
import { recomputePoints } from '../../src/points/recompute.js';
import {
  pointsConfigSchema,
  pointsRuleOf,
  ruleVersion,
  transferPointsMicro,
  type PointsRule,
} from '../../src/points/rule.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

jest.setTimeout(300_000);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const SENDERS: { sender: string; domains: number[]; chain: string; key: string }[] = [
  {
    sender: '0x00000000000000000000000000000000000000aa',
    domains: [0, 3, 6],
    chain: 'evm',
    key: '0x00000000000000000000000000000000000000aa',
  },
  {
    sender: '0x00000000000000000000000000000000000000BB',
    domains: [0, 2],
    chain: 'evm',
    key: '0x00000000000000000000000000000000000000bb',
  },
  {
    sender: 'So1anaSender1111111111111111111111111111111',
    domains: [5],
    chain: 'solana',
    key: 'So1anaSender1111111111111111111111111111111',
  },
  { sender: '0x1a2b', domains: [9], chain: 'aptos', key: `0x${'1a2b'.padStart(64, '0')}` },
];
const BASE_MS = Date.parse('2026-12-01T00:00:00Z');

interface Rec {
  id: number;
  network: TransferNetwork;
  who: number;
  source_domain: number;
  destination_domain: number;
  deposit_amount: bigint;
  confirmed: boolean;
  failed: boolean;
  created_at: Date;
}

const recArb = fc
  .record({
    network: fc.constantFrom('mainnet' as const, 'testnet' as const),
    who: fc.integer({ min: 0, max: SENDERS.length - 1 }),
    pick: fc.nat(),
    destination_domain: fc.constantFrom(0, 3, 5),
    deposit_amount: fc.bigInt({ min: 0n, max: 10n ** 13n }),
    confirmed: fc.boolean(),
    failed: fc.boolean(),
    hour: fc.integer({ min: 0, max: 48 }),
  })
  .map((r) => {
    const domains = SENDERS[r.who]!.domains;
    return {
      network: r.network,
      who: r.who,
      source_domain: domains[r.pick % domains.length]!,
      destination_domain: r.destination_domain,
      deposit_amount: r.deposit_amount,
      confirmed: r.confirmed,
      failed: r.failed,
      created_at: new Date(BASE_MS + r.hour * 3_600_000),
    };
  });

const ruleArb = fc
  .record({
    per_usd: fc.oneof(fc.constant('1'), fc.constant('0.333333'), fc.constant('12.5')),
    multipliers: fc.array(
      fc.record(
        {
          source_domain: fc.constantFrom(0, 3, 5),
          destination_domain: fc.constantFrom(0, 3, 5),
          from: fc.constant('2026-12-01T12:00:00Z'),
          to: fc.constant('2026-12-02T00:00:00Z'),
          multiplier: fc.constantFrom('0', '1.5', '2', '0.3333'),
        },
        { requiredKeys: ['multiplier'] },
      ),
      { maxLength: 3 },
    ),
  })
  .map((r): PointsRule =>
    pointsRuleOf(
      pointsConfigSchema.parse({
        POINTS_PER_USD: r.per_usd,
        POINTS_MULTIPLIERS: JSON.stringify(r.multipliers),
      }),
    ),
  );

let nextHash = 0;
async function insert(records: Omit<Rec, 'id'>[]): Promise<Rec[]> {
  if (records.length === 0) return [];
  const res = await db.knex.raw<{ rows: { id: string }[] }>(
    `insert into transactions (network, source_tx_hash, source_domain, destination_domain, sender,
       recipient, deposit_amount, receive_amount, confirmed, has_destination_tx_error,
       destination_tx_status, created_at)
     select network, hash, source_domain, destination_domain, sender, 'recipient', deposit_amount, 0,
            confirmed, failed, case when failed then 'failed' else 'success' end, created_at
       from unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::bigint[], ?::boolean[],
                   ?::boolean[], ?::timestamptz[]) with ordinality
            as r(network, hash, source_domain, destination_domain, sender, deposit_amount, confirmed, failed, created_at, ord)
      order by ord
     returning id`,
    [
      records.map((r) => r.network),
      records.map(() => `0x${(nextHash++).toString(16).padStart(64, '0')}`),
      records.map((r) => r.source_domain),
      records.map((r) => r.destination_domain),
      records.map((r) => SENDERS[r.who]!.sender),
      records.map((r) => r.deposit_amount.toString()),
      records.map((r) => r.confirmed),
      records.map((r) => r.failed),
      records.map((r) => r.created_at.toISOString()),
    ],
  );
  // Identity values follow the insert order of one statement.
  const ids = res.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  return records.map((r, i) => ({ ...r, id: ids[i]! }));
}

/** Expected points per wallet key, computed in TypeScript from the records. */
function expected(
  rule: PointsRule,
  records: Rec[],
): Map<string, { testnet: bigint; mainnet: bigint }> {
  const totals = new Map<string, { testnet: bigint; mainnet: bigint }>();
  for (const r of records) {
    const s = SENDERS[r.who]!;
    const k = `${s.chain}:${s.key}`;
    const row = totals.get(k) ?? { testnet: 0n, mainnet: 0n };
    if (r.confirmed && !r.failed) row[r.network] += transferPointsMicro(rule, r);
    totals.set(k, row);
  }
  return totals;
}

/** Stored points: exact (from wallet_swap_points) and the float columns of wallet_points. */
async function stored(): Promise<{
  exact: Map<string, { testnet: bigint; mainnet: bigint }>;
  floats: Map<string, number[]>;
}> {
  const exact = new Map<string, { testnet: bigint; mainnet: bigint }>();
  const rows = await db.knex.raw<{
    rows: { chain_type: string; address_key: string; network: TransferNetwork; p: string }[];
  }>(
    'select chain_type, address_key, network, sum(points_micro)::text as p from wallet_swap_points group by 1, 2, 3',
  );
  for (const r of rows.rows) {
    const k = `${r.chain_type}:${r.address_key}`;
    const row = exact.get(k) ?? { testnet: 0n, mainnet: 0n };
    row[r.network] += BigInt(r.p);
    exact.set(k, row);
  }
  const floats = new Map<string, number[]>();
  const wp = await db.knex.raw<{
    rows: {
      chain_type: string;
      address_key: string;
      swap_points: number;
      swap_points_mainnet: number;
      total_points_multiplied: number;
      total_points_multiplied_mainnet: number;
      points_multiplier: number;
    }[];
  }>('select * from wallet_points');
  for (const r of wp.rows) {
    floats.set(`${r.chain_type}:${r.address_key}`, [
      r.swap_points,
      r.swap_points_mainnet,
      r.total_points_multiplied,
      r.total_points_multiplied_mainnet,
      r.points_multiplier,
    ]);
  }
  return { exact, floats };
}

function checkAgainst(
  want: Map<string, { testnet: bigint; mainnet: bigint }>,
  got: Awaited<ReturnType<typeof stored>>,
): void {
  for (const [k, w] of want) {
    const exact = got.exact.get(k) ?? { testnet: 0n, mainnet: 0n };
    expect([k, exact]).toEqual([k, w]);
    const floats = got.floats.get(k) ?? [0, 0, 0, 0, 1];
    const multiplier = floats[4]!;
    const t = Number(w.testnet) / 1e6;
    const m = Number(w.mainnet) / 1e6;
    expect(floats[0]).toBeCloseTo(t, 6);
    expect(floats[1]).toBeCloseTo(m, 6);
    expect(floats[2]).toBeCloseTo(t * multiplier, 5);
    expect(floats[3]).toBeCloseTo(m * multiplier, 5);
  }
}

async function reset(): Promise<void> {
  await db.knex.raw(
    'truncate transactions, wallet_swap_points, points_dirty, points_state, wallet_points',
  );
}

describe('swap points from transfer records', () => {
  it('when records are inserted, deleted by a reorg and rewritten, then incremental runs equal the TypeScript computation and a rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(
        ruleArb,
        fc.array(recArb, { minLength: 1, maxLength: 25 }),
        fc.array(recArb, { maxLength: 15 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (rule, first, second, deletes, confirms) => {
          await reset();
          // A wallet with a points multiplier (operator-loaded) keeps it through every run.
          await db.knex.raw(
            `insert into wallet_points (chain_type, address_key, points_multiplier) values ('evm', ?, 2)`,
            [SENDERS[0]!.key],
          );
          let records = await insert(first);
          const run1 = await recomputePoints(db.database, rule);
          expect(run1.mode).toBe('rebuild');
          expect(run1.rule_version).toBe(ruleVersion(rule));

          records = records.concat(await insert(second));
          // Reorg walk-back: some records disappear.
          const gone = new Set(deletes.map((d) => records[d % records.length]!.id));
          await db.knex.raw('delete from transactions where id = any(?::bigint[])', [[...gone]]);
          records = records.filter((r) => !gone.has(r.id));
          // Status rewrites: some records become confirmed.
          const confirmed = new Set(confirms.map((c) => records[c % records.length]?.id ?? -1));
          await db.knex.raw(
            'update transactions set confirmed = true where id = any(?::bigint[])',
            [[...confirmed]],
          );
          records = records.map((r) => (confirmed.has(r.id) ? { ...r, confirmed: true } : r));

          const run2 = await recomputePoints(db.database, rule);
          expect(run2.mode).toBe('incremental');
          const want = expected(rule, records);
          const incremental = await stored();
          checkAgainst(want, incremental);
          const multiplied = incremental.floats.get(`evm:${SENDERS[0]!.key}`);
          if (multiplied) expect(multiplied[3]).toBeCloseTo(multiplied[1]! * 2, 5);

          await recomputePoints(db.database, rule, { rebuild: true });
          const rebuilt = await stored();
          expect(rebuilt.exact).toEqual(incremental.exact);
          expect(rebuilt.floats).toEqual(incremental.floats);
        },
      ),
      { numRuns: 10, endOnFailure: true },
    );
  });

  it('when two jobs run at once, then the totals are those of one job', async () => {
    const rule = pointsRuleOf(pointsConfigSchema.parse({}));
    await reset();
    const records = await insert(
      fc.sample(recArb, { numRuns: 40, seed: 7 }).map((r) => ({ ...r, confirmed: true })),
    );
    await recomputePoints(db.database, rule);
    const more = await insert(fc.sample(recArb, { numRuns: 20, seed: 8 }));
    const all = records.concat(more);
    await Promise.all([recomputePoints(db.database, rule), recomputePoints(db.database, rule)]);
    const got = await stored();
    checkAgainst(expected(rule, all), got);
  });

  it('when the rule changes, then the next run rebuilds with the new version', async () => {
    await reset();
    await insert([
      {
        network: 'mainnet',
        who: 0,
        source_domain: 0,
        destination_domain: 3,
        deposit_amount: 2_500_000n,
        confirmed: true,
        failed: false,
        created_at: new Date(BASE_MS),
      },
    ]);
    const one = pointsRuleOf(pointsConfigSchema.parse({}));
    const two = pointsRuleOf(pointsConfigSchema.parse({ POINTS_PER_USD: '4' }));
    await recomputePoints(db.database, one);
    expect((await recomputePoints(db.database, one)).mode).toBe('incremental');
    const changed = await recomputePoints(db.database, two);
    expect(changed).toMatchObject({ mode: 'rebuild', rule_version: ruleVersion(two) });
    const state = await db.knex.raw<{ rows: { rule_version: string }[] }>(
      'select rule_version from points_state',
    );
    expect(state.rows[0]?.rule_version).toBe(ruleVersion(two));
    const got = await stored();
    expect(got.exact.get(`evm:${SENDERS[0]!.key}`)).toEqual({ testnet: 0n, mainnet: 10_000_000n });
  });

  it('when the configuration is invalid, then parsing fails with the variable named', () => {
    expect(pointsConfigSchema.safeParse({ POINTS_PER_USD: '-1' }).success).toBe(false);
    expect(pointsConfigSchema.safeParse({ POINTS_PER_USD: '0.0000001' }).success).toBe(false);
    expect(pointsConfigSchema.safeParse({ POINTS_MULTIPLIERS: 'nope' }).success).toBe(false);
    expect(
      pointsConfigSchema.safeParse({ POINTS_MULTIPLIERS: '[{"multiplier":"1.5","extra":1}]' })
        .success,
    ).toBe(false);
  });
});
