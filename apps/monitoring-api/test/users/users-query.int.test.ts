/** GET /users?wallets= and GET /users?domains= over real HTTP against a real database. */
import { beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { recomputeRanks } from '../../src/users/ranks.js';
import { bindTestWallet, evmAddress, insertUser } from './builders.js';
import { useTestApp } from '../support/app.js';

const ALICE_EVM = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const ALICE_SOL = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ALICE_APT = '0x1';
const BOB_SUI = `0x${'b'.repeat(64)}`;

describe('GET /users', () => {
  const t = useTestApp();
  const get = async (query: Record<string, string | string[]>) =>
    request(t.app).get('/users').query(query);

  beforeAll(async () => {
    const k = t.db.knex;
    const alice = await insertUser(k, {
      username: 'alice.ctss',
      ref_code: 'ALICE1',
      staked_eth_nfts: 3,
      staked_op_nfts: 1,
      nft_points: 4,
    });
    const bob = await insertUser(k, { username: 'bob.ctss', ref_code: 'BOB1' });
    await insertUser(k, { username: 'carol.ctss', ref_code: 'CAROL1' });
    await bindTestWallet(k, alice, 'evm', ALICE_EVM, {
      swap_points: 2,
      swap_points_mainnet: 10,
      testnet_points: 1.5,
      points_multiplier: 1.5,
    });
    await bindTestWallet(k, alice, 'solana', ALICE_SOL, { swap_points: 4, points_multiplier: 2 });
    await bindTestWallet(k, alice, 'aptos', ALICE_APT);
    await bindTestWallet(k, bob, 'sui', BOB_SUI, { swap_points: 1 });
    await bindTestWallet(k, bob, 'evm', evmAddress(7), { swap_points_mainnet: 100 });
    await recomputeRanks(t.db.database);
  });
  describe('?wallets=', () => {
    it('when one wallet is given (any case), then its user comes back with every bound wallet and the sums', async () => {
      const res = await get({ wallets: `${ALICE_EVM.toLowerCase()}_evm` });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        username: 'alice.ctss',
        ref_code: 'ALICE1',
        users: [
          {
            user_id: expect.any(Number),
            username: 'alice.ctss',
            ref_code: 'ALICE1',
            wallets: [
              {
                address: `0x${'0'.repeat(63)}1`,
                chain_type: 'aptos',
                swap_points: 0,
                swap_points_mainnet: 0,
                points_multiplier: 1,
                total_points_multiplied: 0,
                total_points_multiplied_mainnet: 0,
              },
              {
                address: ALICE_EVM,
                chain_type: 'evm',
                swap_points: 2,
                swap_points_mainnet: 10,
                points_multiplier: 1.5,
                total_points_multiplied: 3,
                total_points_multiplied_mainnet: 15,
              },
              {
                address: ALICE_SOL,
                chain_type: 'solana',
                swap_points: 4,
                swap_points_mainnet: 0,
                points_multiplier: 2,
                total_points_multiplied: 8,
                total_points_multiplied_mainnet: 0,
              },
            ],
            max_multiplier: 2,
            testnet_points: 1.5,
            nft_points: 4,
            swap_points: 6,
          },
        ],
      });
    });

    it('when wallets of two users are given, then both users come back in query order and the first names the response', async () => {
      const res = await get({ wallets: `${BOB_SUI}_sui,${ALICE_SOL}_sol,${ALICE_APT}_apt` });
      expect(res.status).toBe(200);
      const body = res.body as { username: string; users: { username: string }[] };
      expect([body.username, body.users.map((u) => u.username)]).toEqual([
        'bob.ctss',
        ['bob.ctss', 'alice.ctss'],
      ]);
    });

    it('when no given wallet is bound, then it is a 404 NOT_FOUND problem', async () => {
      const res = await get({ wallets: `${evmAddress(99)}_evm` });
      expect([res.status, (res.body as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
    });

    it.each([
      ['an unknown chain', `${ALICE_EVM}_tron`],
      ['no chain at all', ALICE_EVM],
      ['an empty chain', `${ALICE_EVM}_`],
      ['an address of the wrong chain', `${ALICE_SOL}_evm`],
      ['a malformed address', '0x123_evm'],
      ['an empty list', ','],
      ['21 entries', Array.from({ length: 21 }, (_, i) => `${evmAddress(i + 1)}_evm`).join(',')],
      ['SQL in the address', "0x' or 1=1 --_evm"],
      ['a prototype key as the chain', `${ALICE_EVM}_constructor`],
    ])('when the list holds %s, then it is a 400 INVALID_QUERY', async (_case, wallets) => {
      const res = await get({ wallets });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_QUERY' });
    });

    it('when 20 entries are given, then they are accepted', async () => {
      const wallets = [
        `${ALICE_EVM}_evm`,
        ...Array.from({ length: 19 }, (_, i) => `${evmAddress(i + 100)}_evm`),
      ].join(',');
      expect((await get({ wallets })).status).toBe(200);
    });
  });

  describe('?domains=', () => {
    it('when a username is given (any case), then its aggregate comes back with per-chain objects of bound evm/sol wallets', async () => {
      const res = await get({ domains: 'ALICE.ctss' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        username: 'alice.ctss',
        ref_code: 'ALICE1',
        binded_wallets: { evm: ALICE_EVM, sol: ALICE_SOL, apt: `0x${'0'.repeat(63)}1`, sui: '' },
        leaderboard_rank_mainnet: 2,
        leaderboard_rank_devnet: 1,
        domain_total_multiplied_points_mainnet: 19,
        domain_total_multiplied_points: 11,
        evm: {
          address: ALICE_EVM,
          chain_type: 'evm',
          swap_points: 2,
          testnet_points: 1.5,
          points_multiplier: 1.5,
          total_points_multiplied: 3,
          swap_points_mainnet: 10,
          total_points_multiplied_mainnet: 15,
          staked_eth_nfts: 3,
          staked_op_nfts: 1,
          nft_points: 4,
        },
        sol: {
          address: ALICE_SOL,
          chain_type: 'solana',
          swap_points: 4,
          testnet_points: 0,
          points_multiplier: 2,
          total_points_multiplied: 8,
        },
      });
    });

    it('when the user has no evm or sol wallet, then those objects are absent and the slots empty', async () => {
      const body = (await get({ domains: 'carol.ctss' })).body as Record<string, unknown>;
      expect(body.binded_wallets).toEqual({ evm: '', sol: '', apt: '', sui: '' });
      expect(body).not.toHaveProperty('evm');
      expect(body).not.toHaveProperty('sol');
    });

    it('when the user joined after the last rank job, then the ranks are 0 (the spec types them as integers)', async () => {
      await insertUser(t.db.knex, { username: 'dave.ctss' });
      const body = (await get({ domains: 'dave.ctss' })).body as Record<string, unknown>;
      expect([body.leaderboard_rank_mainnet, body.leaderboard_rank_devnet]).toEqual([0, 0]);
    });

    it('when the username is unknown, then it is a 404 NOT_FOUND problem', async () => {
      const res = await get({ domains: 'nobody.ctss' });
      expect([res.status, (res.body as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
    });

    it.each([
      ['a name without the suffix', 'alice'],
      ['the suffix alone', '.ctss'],
      ['two names', 'alice.ctss,bob.ctss'],
      ['a 10 kB name', `${'a'.repeat(10_000)}.ctss`],
    ])('when given %s, then it is a 400 INVALID_QUERY', async (_case, domains) => {
      const res = await get({ domains });
      expect([res.status, (res.body as { code: string }).code]).toEqual([400, 'INVALID_QUERY']);
    });
  });

  it.each([
    ['neither parameter', {}],
    ['both parameters', { wallets: `${ALICE_EVM}_evm`, domains: 'alice.ctss' }],
    ['a repeated parameter', { domains: ['alice.ctss', 'bob.ctss'] }],
  ])('when the query has %s, then it is a 400 INVALID_QUERY', async (_case, query) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'INVALID_QUERY' });
  });
});
