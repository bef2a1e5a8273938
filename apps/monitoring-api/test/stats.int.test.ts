/**
 * Statistics over real HTTP and a real database, cross-checked against direct SQL over the raw
 * rows; the trigger-kept rollups are checked exact after random inserts, updates and deletes.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import request from 'supertest';
import type { Knex } from 'knex';
import { aTransaction, insertAll } from './support/builders.js';
import { expectRollupsExact, rows } from './support/rollups.js';
import { useTestApp } from './support/app.js';
import { TEST_NOW } from './support/deps.js';
import { watchQueries } from './support/queries.js';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const usd = (baseUnits: string | bigint) => Number(baseUnits) / 1e6;

describe('statistics endpoints', () => {
  const t = useTestApp({ env: { CACHE_TTL_SECONDS: '0' } });
  /** The body of a 200 answer to GET `path` with `query`. */
  const okBody = async (path: string, query: Record<string, string> = {}) =>
    (await request(t.app).get(path).query(query).expect(200)).body;
  const whale = '0xAAAA000000000000000000000000000000000001';
  const big = 2n ** 62n;

  beforeAll(async () => {
    await insertAll(t.db.database, [
      aTransaction({
        created_at: at('2026-11-21T12:10:00Z'),
        sender: whale,
        deposit_amount: 5_000_000n,
        receive_amount: 4_700_000n,
        relayer_fee: 250_000n,
      }),
      aTransaction({
        created_at: at('2026-11-21T12:10:00Z'),
        source_domain: 5,
        deposit_amount: 7_000_000n,
        receive_amount: 6_000_000n,
        relayer_fee: 590_000n,
      }),
      aTransaction({
        created_at: at('2026-11-21T11:59:59Z'),
        sender: whale.toLowerCase(),
        deposit_amount: 1_000_000n,
        receive_amount: 900_000n,
        relayer_fee: 80_000n,
      }),
      aTransaction({
        created_at: at('2026-11-20T13:00:00Z'),
        source_domain: 600012,
        deposit_amount: 3_000_000n,
        receive_amount: 2_900_000n,
      }),
      aTransaction({
        created_at: at('2026-11-20T12:59:59Z'),
        deposit_amount: 11_000_000n,
        receive_amount: 10_000_000n,
      }),
      aTransaction({
        created_at: at('2026-10-01T00:00:00Z'),
        source_domain: 3,
        deposit_amount: big,
        receive_amount: big - 1_000n,
      }),
      aTransaction({
        network: 'testnet',
        created_at: at('2026-11-21T12:00:00Z'),
        sender: whale,
        deposit_amount: 99_000_000n,
      }),
      aTransaction({
        network: 'testnet',
        created_at: at('2026-11-21T12:00:00Z'),
        deposit_amount: 1n,
      }),
    ]);
  });

  it('when asking the lifetime volume, then it equals the sum over the raw rows, exact above 2^53', async () => {
    const [expected] = await rows(
      t.db.knex,
      `select sum(deposit_amount)::text as v from transactions where network = 'mainnet'`,
    );
    const res = await request(t.app).get('/stats/mainnet/volumes').expect(200);
    expect(res.text).toBe(`{"total_volume":${expected!.v},"user_volume":null,"volumes":null}`);
  });

  it('when asking the volume of senders (any letter case), then it sums only their mainnet rows', async () => {
    const res = await request(t.app)
      .get('/stats/mainnet/volumes')
      .query({
        senders: `${whale.toUpperCase().replace('0X', '0x')},0x0000000000000000000000000000000000000999`,
      })
      .expect(200);
    expect(res.text).toBe('{"user_volume":6000000,"volumes":null}');
  });

  it('when asking hourly volumes, then 24 UTC buckets end with the current hour and match raw SQL', async () => {
    const res = await request(t.app).get('/stats/mainnet/volumes/hourly').expect(200);
    const volumes = res.body.volumes as { bucket_start: string; total_volume_usd: number }[];
    expect(volumes).toHaveLength(24);
    expect(volumes[23]!.bucket_start).toBe('2026-11-21T12:00:00.000Z');
    expect(volumes[0]!.bucket_start).toBe('2026-11-20T13:00:00.000Z');
    const raw = await rows(
      t.db.knex,
      `select to_char(date_trunc('hour', created_at, 'UTC') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') as b, sum(deposit_amount)::text as v
         from transactions where network = 'mainnet' group by 1`,
    );
    const byBucket = new Map(raw.map((r) => [r.b, usd(r.v!)]));
    for (const bucket of volumes)
      expect(bucket.total_volume_usd).toBe(byBucket.get(bucket.bucket_start) ?? 0);
    expect(volumes[23]!.total_volume_usd).toBe(12);
    expect(volumes[22]!.total_volume_usd).toBe(1);
    expect(volumes[0]!.total_volume_usd).toBe(3);
    expect(volumes.filter((v) => v.total_volume_usd === 0)).toHaveLength(21);
  });

  it('when asking daily volumes with a limit, then UTC days end today, empty days are zero', async () => {
    const res = await request(t.app)
      .get('/stats/mainnet/volumes/daily')
      .query({ limit: '3' })
      .expect(200);
    expect(res.body.volumes).toEqual([
      { bucket_start: '2026-11-19T00:00:00.000Z', total_volume_usd: 0 },
      { bucket_start: '2026-11-20T00:00:00.000Z', total_volume_usd: 14 },
      { bucket_start: '2026-11-21T00:00:00.000Z', total_volume_usd: 13 },
    ]);
    expect((await okBody('/stats/mainnet/volumes/daily')).volumes).toHaveLength(30);
    expect(
      (await okBody('/stats/mainnet/volumes/daily', { limit: '100000' })).volumes,
    ).toHaveLength(365);
    expect((await okBody('/stats/mainnet/volumes/hourly', { limit: '5000' })).volumes).toHaveLength(
      720,
    );
  });

  it('when asking fees hourly and daily, then fee = deposit - receive and relayer fees per bucket', async () => {
    const hourly = await request(t.app)
      .get('/stats/mainnet/fees')
      .query({ limit: '2' })
      .expect(200);
    expect(hourly.body).toEqual({
      fees: [
        {
          bucket_start: '2026-11-21T11:00:00.000Z',
          total_fee_usd: 0.1,
          total_relayer_fee_usd: 0.08,
        },
        {
          bucket_start: '2026-11-21T12:00:00.000Z',
          total_fee_usd: 1.3,
          total_relayer_fee_usd: 0.84,
        },
      ],
      period_type: 'hourly',
      limit: 2,
      offset: 0,
    });
    const daily = await request(t.app)
      .get('/stats/mainnet/fees')
      .query({ period: 'daily', limit: '1', offset: '1' })
      .expect(200);
    expect(daily.body).toEqual({
      fees: [
        {
          bucket_start: '2026-11-20T00:00:00.000Z',
          total_fee_usd: 1.1,
          total_relayer_fee_usd: 0.4,
        },
      ],
      period_type: 'daily',
      limit: 1,
      offset: 1,
    });
    expect((await okBody('/stats/mainnet/fees')).fees).toHaveLength(24);
    expect((await okBody('/stats/mainnet/fees', { period: 'daily' })).fees).toHaveLength(30);
  });

  it('when asking counts, shares and wallets, then they equal the raw rows', async () => {
    const [count] = await rows(
      t.db.knex,
      `select count(*)::text as n from transactions where network = 'mainnet'`,
    );
    const tx = await request(t.app).get('/stats/mainnet/transactions').expect(200);
    expect(tx.body).toEqual({ total_transactions: Number(count!.n) });

    const shares = await rows(
      t.db.knex,
      `select source_domain::text as d, sum(deposit_amount)::text as a from transactions where network = 'mainnet' group by 1 order by sum(deposit_amount) desc, 1`,
    );
    const [total] = await rows(
      t.db.knex,
      `select sum(deposit_amount)::text as t from transactions where network = 'mainnet'`,
    );
    const res = await request(t.app).get('/stats/mainnet/chain-shares').expect(200);
    expect(res.text).toBe(
      JSON.stringify({
        chain_shares: shares.map((s) => ({
          domain: Number(s.d),
          amount: '@' + s.a,
          total_amount: '@' + total!.t,
        })),
      }).replace(/"@([0-9]+)"/g, '$1'),
    );

    for (const [path, network] of [
      ['/stats/mainnet/wallets', 'mainnet'],
      ['/stats/wallets', 'testnet'],
    ] as const) {
      const [distinct] = await rows(
        t.db.knex,
        `select count(distinct sender)::text as n from transactions where network = ?`,
        [network],
      );
      const wallets = await request(t.app).get(path).expect(200);
      expect(wallets.body).toEqual({ unique_senders_count: Number(distinct!.n) });
    }
  });

  const bad: [string, string, Record<string, string> | string][] = [
    ['hourly limit 0', '/stats/mainnet/volumes/hourly', { limit: '0' }],
    ['daily negative limit', '/stats/mainnet/volumes/daily', { limit: '-3' }],
    ['fees non-numeric limit', '/stats/mainnet/fees', { limit: 'all' }],
    ['fees unknown period', '/stats/mainnet/fees', { period: 'weekly' }],
    ['fees negative offset', '/stats/mainnet/fees', { offset: '-1' }],
    ['fees huge offset', '/stats/mainnet/fees', { offset: '99999999' }],
    [
      'volumes 51 senders',
      '/stats/mainnet/volumes',
      {
        senders: Array.from({ length: 51 }, (_, i) => `0x${String(i).padStart(40, '0')}`).join(','),
      },
    ],
    [
      'volumes SQL in senders',
      '/stats/mainnet/volumes',
      { senders: "'; delete from transactions; --" },
    ],
    ['volumes 10 kB senders', '/stats/mainnet/volumes', { senders: 'a'.repeat(10_000) }],
    ['transactions unknown parameter', '/stats/mainnet/transactions', { network: 'testnet' }],
    ['chain-shares unknown parameter', '/stats/mainnet/chain-shares', { limit: '1' }],
    ['wallets unknown parameter', '/stats/mainnet/wallets', { x: '1' }],
    ['testnet wallets unknown parameter', '/stats/wallets', { x: '1' }],
    ['repeated limit', '/stats/mainnet/volumes/hourly', 'limit=1&limit=2'],
  ];

  it.each(bad)('when given %s, then it is a 400 problem', async (_name, path, query) => {
    const res = await request(t.app).get(path).query(query).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
  });

  it('when rows are inserted, updated and deleted at random, then rollups and sender counts stay exact', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        n: fc.integer({ min: 1, max: 6 }),
        hour: fc.integer({ min: 0, max: 30 }),
        domain: fc.constantFrom(0, 3, 5, 4_294_967_295),
        sender: fc.constantFrom(
          '0xAB00000000000000000000000000000000000001',
          '0xab00000000000000000000000000000000000002',
          'SoLSender111',
        ),
        amount: fc.bigInt({ min: 0n, max: 2n ** 62n }),
      }),
      fc.record({
        kind: fc.constant('update' as const),
        modulo: fc.integer({ min: 1, max: 4 }),
        field: fc.constantFrom('amount', 'hour', 'sender', 'domain', 'network', 'status'),
      }),
      fc.record({ kind: fc.constant('delete' as const), modulo: fc.integer({ min: 1, max: 5 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'insert') {
            await insertAll(
              t.db.database,
              Array.from({ length: o.n }, (_, i) =>
                aTransaction({
                  created_at: new Date(TEST_NOW.getTime() - o.hour * HOUR - i * 1000),
                  source_domain: o.domain,
                  sender: o.sender,
                  deposit_amount: o.amount,
                  receive_amount: o.amount / 2n,
                  relayer_fee: o.amount / 10n,
                }),
              ),
            );
          } else if (o.kind === 'update') {
            const scope = t.db.knex('transactions').whereRaw('id % ? = 0', [o.modulo]);
            const set: Record<string, Knex.Raw> = {
              hour: t.db.knex.raw(`created_at - interval '1 hour'`),
              sender: t.db.knex.raw(`upper(sender)`),
              domain: t.db.knex.raw(`(source_domain + 1) % 4294967296`),
              network: t.db.knex.raw(
                `case network when 'mainnet' then 'testnet' else 'mainnet' end`,
              ),
            };
            if (o.field === 'amount')
              await t.db.knex.raw(
                'update transactions set deposit_amount = deposit_amount + 17, receive_amount = receive_amount + 3 where id % ? = 0',
                [o.modulo],
              );
            else if (o.field === 'status') await scope.update({ destination_tx_status: 'failed' });
            else {
              const column = {
                hour: 'created_at',
                sender: 'sender',
                domain: 'source_domain',
                network: 'network',
              }[o.field];
              await scope.update({ [column]: set[o.field]! });
            }
          } else {
            await t.db.knex('transactions').whereRaw('id % ? = 0', [o.modulo]).delete();
          }
        }
        await expectRollupsExact(t.db.knex);
      }),
      { numRuns: 25, seed: 4242 },
    );
  });

  it('when the statistics come from the rollups after all those changes, then they still equal raw SQL', async () => {
    const [expected] = await rows(
      t.db.knex,
      `select coalesce(sum(deposit_amount), 0)::text as v, count(*)::text as n from transactions where network = 'mainnet'`,
    );
    const volume = await request(t.app).get('/stats/mainnet/volumes').expect(200);
    expect(volume.text).toBe(`{"total_volume":${expected!.v},"user_volume":null,"volumes":null}`);
    const tx = await request(t.app).get('/stats/mainnet/transactions').expect(200);
    expect(tx.body.total_transactions).toBe(Number(expected!.n));
  });
});

describe('statistics cache', () => {
  const t = useTestApp({ env: { CACHE_TTL_SECONDS: '30' } });

  it('when a cached statistic is asked again after new rows, then the cached value is served until it expires', async () => {
    await insertAll(t.db.database, [aTransaction({ deposit_amount: 5n })]);
    const first = await request(t.app).get('/stats/mainnet/transactions').expect(200);
    expect(first.body.total_transactions).toBe(1);
    await insertAll(t.db.database, [aTransaction({ deposit_amount: 5n })]);
    const second = await request(t.app).get('/stats/mainnet/transactions').expect(200);
    expect(second.body.total_transactions).toBe(1);
    const keys = [
      ...(await Promise.all(['stats:mainnet:transactions'].map((k) => t.deps.kv.get(k)))),
    ];
    expect(keys[0]).toBe('{"total_transactions":1}');
    await t.deps.kv.del('stats:mainnet:transactions');
    const third = await request(t.app).get('/stats/mainnet/transactions').expect(200);
    expect(third.body.total_transactions).toBe(2);
  });

  it('when many requests miss the cache at once, then one query runs and all get the same answer', async () => {
    const { queries, stop } = watchQueries(t.db.database, 'tx_network_totals');
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => request(t.app).get('/stats/mainnet/volumes')),
      );
      expect(new Set(responses.map((r) => r.text))).toEqual(
        new Set(['{"total_volume":10,"user_volume":null,"volumes":null}']),
      );
      expect(queries).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
