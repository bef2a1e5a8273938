/** GET /users/leaderboard over real HTTP against a real database. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { recomputeRanks } from '../../src/users/ranks.js';
import { LEADERBOARD_TOTAL_KEY } from '../../src/users/service.js';
import { bindTestWallet, evmAddress, insertUser, refer } from './builders.js';
import { startTestApp, useTestApp, type TestApp } from '../support/app.js';
import { watchQueries } from '../support/queries.js';

interface Page {
  leaderboard: { username: string; domain_rank: number | null; [field: string]: unknown }[];
  total_count: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

const LONG_NAME = `${'x'.repeat(95)}.ctss`;

describe('GET /users/leaderboard', () => {
  const t = useTestApp();
  const get = async (query: Record<string, string | string[]>) =>
    request(t.app).get('/users/leaderboard').query(query);
  const names = (body: Page) => body.leaderboard.map((e) => e.username);

  beforeAll(async () => {
    const k = t.db.knex;
    // mainnet: alice 30.5 (+ referral 10% of bob's 12), bob 12, a_b 3, axb 2.5, long 1; devnet: axb first.
    const alice = await insertUser(k, {
      username: 'Alice.ctss',
      staked_op_nfts: 2,
      staked_eth_nfts: 1,
      nft_points: 0.5,
    });
    const bob = await insertUser(k, { username: 'bob.ctss', domain_multiplier: 1.5 });
    const ab = await insertUser(k, { username: 'a_b.ctss' });
    const axb = await insertUser(k, { username: 'axb.ctss' });
    const long = await insertUser(k, { username: LONG_NAME });
    await bindTestWallet(k, alice, 'evm', evmAddress(1), {
      swap_points_mainnet: 10,
      points_multiplier: 3,
      swap_points: 1,
    });
    await bindTestWallet(k, alice, 'solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', {
      swap_points_mainnet: 0,
      swap_points: 2,
    });
    await bindTestWallet(k, bob, 'evm', evmAddress(2), { swap_points_mainnet: 8 });
    await bindTestWallet(k, ab, 'evm', evmAddress(3), { swap_points_mainnet: 3 });
    await bindTestWallet(k, axb, 'evm', evmAddress(4), {
      swap_points_mainnet: 2.5,
      swap_points: 100,
    });
    await bindTestWallet(k, long, 'evm', evmAddress(5), { swap_points_mainnet: 1 });
    await refer(k, alice, bob);
    await recomputeRanks(t.db.database);
    // Joined after the rank job ran: unranked, listed after every ranked user.
    await insertUser(k, { username: 'zoe.ctss' });
  });
  it('when asked with no parameters, then mainnet ranked users come by rank, then unranked users, 50 per page', async () => {
    const res = await get({});
    expect(res.status).toBe(200);
    const body = res.body as Page;
    expect(names(body)).toEqual([
      'Alice.ctss',
      'bob.ctss',
      'a_b.ctss',
      'axb.ctss',
      LONG_NAME,
      'zoe.ctss',
    ]);
    expect(body.leaderboard.map((e) => e.domain_rank)).toEqual([1, 2, 3, 4, 5, null]);
    expect([body.total_count, body.limit, body.offset, body.has_more]).toEqual([6, 50, 0, false]);
  });

  it('when a user is listed, then every entry field is there and points are floats from the formulas', async () => {
    const body = (await get({})).body as Page;
    expect(body.leaderboard[0]).toEqual({
      user_id: expect.any(Number),
      username: 'Alice.ctss',
      ref_code: 'ref-Alice.ctss',
      total_base_points: 10,
      domain_multiplier: 1,
      domain_total_multiplied_points: 30.5,
      referral_points: 1.2000000000000002,
      total_points_with_referrals: 31.7,
      staked_op_nfts: 2,
      staked_eth_nfts: 1,
      wallet_count: 2,
      domain_rank: 1,
    });
    expect(body.leaderboard[1]).toMatchObject({
      username: 'bob.ctss',
      domain_multiplier: 1.5,
      domain_total_multiplied_points: 12,
    });
    expect(body.leaderboard[5]).toMatchObject({
      username: 'zoe.ctss',
      wallet_count: 0,
      total_base_points: 0,
      domain_rank: null,
    });
  });

  it('when network=devnet, then the devnet ranking is used', async () => {
    const body = (await get({ network: 'devnet' })).body as Page;
    expect(names(body).slice(0, 2)).toEqual(['axb.ctss', 'Alice.ctss']);
    expect(body.leaderboard[0]).toMatchObject({
      total_base_points: 100,
      domain_total_multiplied_points: 100,
      domain_rank: 1,
    });
  });

  it('when paging with limit and offset, then pages do not overlap and has_more tells whether more follow', async () => {
    const first = (await get({ limit: '2', offset: '0' })).body as Page;
    const second = (await get({ limit: '2', offset: '2' })).body as Page;
    const last = (await get({ limit: '2', offset: '4' })).body as Page;
    expect([...names(first), ...names(second), ...names(last)]).toEqual(
      names((await get({})).body as Page),
    );
    expect([first.has_more, second.has_more, last.has_more]).toEqual([true, true, false]);
    expect((await get({ offset: '100' })).body).toMatchObject({
      leaderboard: [],
      total_count: 6,
      has_more: false,
    });
  });

  it('when limit is above 100, then it is clamped and the effective limit is echoed', async () => {
    const res = await get({ limit: '1000' });
    expect([res.status, (res.body as Page).limit]).toEqual([200, 100]);
  });

  it('when searching, then the filter is a case-insensitive substring of the username', async () => {
    const body = (await get({ search: 'ALI' })).body as Page;
    expect([names(body), body.total_count]).toEqual([['Alice.ctss'], 1]);
    expect(names((await get({ search: '.CTSS', limit: '3' })).body as Page)).toHaveLength(3);
  });

  it('when the search holds LIKE metacharacters or SQL, then they match literally', async () => {
    expect(names((await get({ search: 'a_b' })).body as Page)).toEqual(['a_b.ctss']);
    expect((await get({ search: '%' })).body).toMatchObject({ leaderboard: [], total_count: 0 });
    expect((await get({ search: '\\' })).body).toMatchObject({ total_count: 0 });
    const injection = await get({ search: "'; drop table users; --" });
    expect([injection.status, (injection.body as Page).total_count]).toEqual([200, 0]);
    expect((await get({})).body).toMatchObject({ total_count: 6 });
  });

  it('when the search is 10 kB long, then it is truncated to 100 characters, not refused', async () => {
    const res = await get({ search: LONG_NAME + 'y'.repeat(10_000 - LONG_NAME.length) });
    expect(res.status).toBe(200);
    expect(names(res.body as Page)).toEqual([LONG_NAME]);
  });

  it.each([
    [{ network: 'testnet' }, 'network'],
    [{ network: '' }, 'network'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ offset: '1e3' }, 'offset'],
    [{ offset: '99999999999999999999' }, 'offset'],
    [{ search: ['a', 'b'] }, 'search'],
    [{ sort: 'asc' }, 'sort'],
  ])('when the query is %j, then it is a 400 INVALID_QUERY naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
    expect((res.body as { detail: string }).detail).toContain(field);
  });
});

describe('GET /users/leaderboard total_count cache', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });
  const total = async (t: TestApp, query: Record<string, string> = {}) =>
    ((await request(t.app).get('/users/leaderboard').query(query).expect(200)).body as Page)
      .total_count;

  it('when a user joins, then the unfiltered and the search totals are the cached counts until their keys go', async () => {
    const t = await startTestApp({ env: { LEADERBOARD_COUNT_TTL_SECONDS: '3600' } });
    apps.push(t);
    await insertUser(t.db.knex, { username: 'first.ctss' });
    await insertUser(t.db.knex, { username: 'second.ctss' });
    expect(await total(t)).toBe(2);
    expect(await total(t, { search: '.CTSS' })).toBe(2);
    await insertUser(t.db.knex, { username: 'third.ctss' });
    expect(await total(t)).toBe(2);
    expect(await t.deps.kv.get(LEADERBOARD_TOTAL_KEY)).toBe('2');
    // A search's total is cached under its own key (sha256 of the lower-cased search).
    expect(await total(t, { search: '.CTSS' })).toBe(2);
    const searchKey = `${LEADERBOARD_TOTAL_KEY}:${createHash('sha256').update('.ctss').digest('hex')}`;
    expect(await t.deps.kv.get(searchKey)).toBe('2');
    // A search not asked before counts now.
    expect(await total(t, { search: 'ird' })).toBe(1);
    await t.deps.kv.del(LEADERBOARD_TOTAL_KEY);
    await t.deps.kv.del(searchKey);
    expect(await total(t)).toBe(3);
    expect(await total(t, { search: '.CTSS' })).toBe(3);
  });

  it('when the count TTL is 0, then every page counts the users', async () => {
    const t = await startTestApp({ env: { LEADERBOARD_COUNT_TTL_SECONDS: '0' } });
    apps.push(t);
    await insertUser(t.db.knex, { username: 'one.ctss' });
    expect(await total(t)).toBe(1);
    await insertUser(t.db.knex, { username: 'two.ctss' });
    expect(await total(t)).toBe(2);
    expect(await t.deps.kv.get(LEADERBOARD_TOTAL_KEY)).toBeNull();
  });
});

describe('GET /users/leaderboard under concurrent identical requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    for (const name of ['p1.ctss', 'p2.ctss', 'p3.ctss'])
      await insertUser(t.db.knex, { username: name });
  });
  afterAll(async () => {
    await t.close();
  });

  it('when 20 identical pages are asked at once, then one page query runs and all get the same body; a new request reads again', async () => {
    const { queries, stop } = watchQueries(t.db.database, 'with page');
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          request(t.app).get('/users/leaderboard').query({ limit: '2' }),
        ),
      );
      expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      expect((responses[0]!.body as Page).leaderboard).toHaveLength(2);
      expect(queries).toHaveLength(1);
      await insertUser(t.db.knex, { username: 'p0.ctss' });
      const later = await request(t.app)
        .get('/users/leaderboard')
        .query({ limit: '2', search: 'p0' })
        .expect(200);
      const laterPage = later.body as Page;
      expect([laterPage.leaderboard.map((e) => e.username), laterPage.total_count]).toEqual([
        ['p0.ctss'],
        1,
      ]);
      expect(queries).toHaveLength(2);
    } finally {
      stop();
    }
  });
});
