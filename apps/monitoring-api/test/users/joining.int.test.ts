/**
 * Joining and the ownership of usernames over real HTTP against a real database and KV store:
 * a new username is claimed by its first signed bind, takes a second chain's wallet only with
 * the signature of a wallet it already has, and its points come with its wallets once the points
 * and rank job has run over the transfer records. Every abuse case is a clear 4xx problem.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { recomputePoints } from '../../src/points/recompute.js';
import { pointsConfigSchema, pointsRuleOf } from '../../src/points/rule.js';
import { recomputeRanks } from '../../src/users/ranks.js';
import { useTestApp } from '../support/app.js';
import { evmWallet, solanaWallet, type TestWallet } from './wallets.js';

describe('joining: usernames claimed by a signed bind, owned by their wallets', () => {
  const t = useTestApp();

  const signedBody = async (
    username: string,
    wallet: TestWallet,
    type: 'bind' | 'unbind',
    authorizer?: TestWallet,
  ) => {
    const res = await request(t.app)
      .get('/users/messages')
      .query({ username, address: wallet.address, chain_type: wallet.chainType });
    expect(res.status).toBe(200);
    const message = (res.body as { message: string }).message;
    const signed = await wallet.sign(message);
    const second = authorizer ? await authorizer.sign(message) : undefined;
    return {
      username,
      address: wallet.address,
      chain_type: wallet.chainType,
      type,
      signature: signed.signature,
      message: signed.message,
      ...(authorizer && second
        ? {
            authorizer: {
              address: authorizer.address,
              chain_type: authorizer.chainType,
              signature: second.signature,
            },
          }
        : {}),
    };
  };
  const verify = (body: object) => request(t.app).post('/users/verify').send(body);
  const codeOf = (res: { status: number; body: unknown }) => [
    res.status,
    (res.body as { code?: string }).code,
  ];

  const owner = evmWallet();
  const ownerSol = solanaWallet();

  it('when an unused username is bound by a wallet, then it exists with that wallet and a referral code', async () => {
    const res = await verify(await signedBody('Joiner.CTSS', owner, 'bind'));
    expect([res.status, res.body]).toEqual([200, { success: true, username: 'joiner.ctss' }]);
    const user = await request(t.app).get('/users').query({ domains: 'joiner.ctss' });
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({
      username: 'joiner.ctss',
      binded_wallets: { evm: owner.address, sol: '' },
    });
    expect((user.body as { ref_code: string }).ref_code).toMatch(/^[a-z2-9]{10}$/);
  });

  it('when another wallet binds to a username that has wallets without its signature, then it is a 403 and the owner can still bind', async () => {
    const attacker = solanaWallet();
    expect(codeOf(await verify(await signedBody('joiner.ctss', attacker, 'bind')))).toEqual([
      403,
      'AUTHORIZATION_REQUIRED',
    ]);
    const stranger = evmWallet();
    expect(
      codeOf(await verify(await signedBody('joiner.ctss', attacker, 'bind', stranger))),
    ).toEqual([403, 'NOT_AUTHORIZED']);
    // A case variant names the same user: no second account, same rule.
    expect(codeOf(await verify(await signedBody('JOINER.ctss', attacker, 'bind')))).toEqual([
      403,
      'AUTHORIZATION_REQUIRED',
    ]);
    const own = await verify(await signedBody('joiner.ctss', ownerSol, 'bind', owner));
    expect([own.status, own.body]).toEqual([200, { success: true, username: 'joiner.ctss' }]);
  });

  it('when the last wallet of a username is unbound, then it is a 409 LAST_WALLET', async () => {
    expect(codeOf(await verify(await signedBody('joiner.ctss', ownerSol, 'unbind')))).toEqual([
      200,
      undefined,
    ]);
    expect(codeOf(await verify(await signedBody('joiner.ctss', owner, 'unbind')))).toEqual([
      409,
      'LAST_WALLET',
    ]);
    expect(codeOf(await verify(await signedBody('joiner.ctss', ownerSol, 'bind', owner)))).toEqual([
      200,
      undefined,
    ]);
  });

  it.each([
    ['too short', 'ab.ctss'],
    ['a Cyrillic look-alike', '\u0430lice.ctss'],
    ['a full-width letter', '\uff41lice.ctss'],
    ['a doubled suffix', 'alice.ctss.ctss'],
    ['a double hyphen (punycode)', 'xn--alice.ctss'],
    ['a leading hyphen', '-alice.ctss'],
    ['too long', `${'a'.repeat(33)}.ctss`],
  ])(
    'when an unused username is %s, then the nonce is refused with 400 INVALID_USERNAME',
    async (_case, username) => {
      const res = await request(t.app)
        .get('/users/messages')
        .query({ username, address: owner.address, chain_type: 'evm' });
      expect(codeOf(res)).toEqual([400, 'INVALID_USERNAME']);
    },
  );

  it.each([
    ['without the suffix', 'alice'],
    ['with another suffix', 'alice.eth'],
  ])(
    'when a username is %s, then the nonce is refused with 400 INVALID_QUERY naming the suffix',
    async (_case, username) => {
      const res = await request(t.app)
        .get('/users/messages')
        .query({ username, address: owner.address, chain_type: 'evm' });
      expect(codeOf(res)).toEqual([400, 'INVALID_QUERY']);
      expect((res.body as { detail: string }).detail).toContain('.ctss');
    },
  );

  it('when a wallet that already holds a username claims another unused one (squatting), then it is a 409 ALREADY_BOUND and the name stays free', async () => {
    expect(codeOf(await verify(await signedBody('squat.ctss', owner, 'bind')))).toEqual([
      409,
      'ALREADY_BOUND',
    ]);
    const free = await request(t.app).get('/users').query({ domains: 'squat.ctss' });
    expect(free.status).toBe(404);
  });

  it('when two wallets claim one unused username at once, then one wins and the other gets 409 USERNAME_TAKEN', async () => {
    const [a, b] = await Promise.all([
      signedBody('race.ctss', evmWallet(), 'bind'),
      signedBody('race.ctss', evmWallet(), 'bind'),
    ]);
    const answers = await Promise.all([verify(a), verify(b)]);
    const codes = answers.map(codeOf).sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(codes[0]).toEqual([200, undefined]);
    // The loser either lost the insert (409 USERNAME_TAKEN) or saw the winner and needs its signature (403).
    expect([
      [409, 'USERNAME_TAKEN'],
      [403, 'AUTHORIZATION_REQUIRED'],
    ]).toContainEqual(codes[1]);
  });

  it('when the wallets of a joined user send transfers, then its points, leaderboard total and rank come with them after the job', async () => {
    const insert = (sender: string, domain: number, amount: bigint, hash: string) =>
      t.db.knex.raw(
        `insert into transactions (network, source_tx_hash, source_domain, destination_domain, sender,
           recipient, deposit_amount, receive_amount, confirmed, destination_tx_status)
         values ('mainnet', ?, ?, 3, ?, 'r', ?, 0, true, 'success')`,
        [hash, domain, sender, amount.toString()],
      );
    await insert(owner.address, 0, 2_000_000_000n, '0xaa01');
    await insert(ownerSol.address, 5, 500_000_000n, 'sol-tx-1');
    const rule = pointsRuleOf(pointsConfigSchema.parse({}));
    await recomputePoints(t.db.database, rule);
    await recomputeRanks(t.db.database);
    const users = await request(t.app)
      .get('/users')
      .query({ wallets: `${owner.address}_evm` });
    expect(users.status).toBe(200);
    const [user] = (users.body as { users: unknown[] }).users as {
      wallets: { chain_type: string; swap_points_mainnet: number }[];
    }[];
    expect(
      Object.fromEntries(user!.wallets.map((w) => [w.chain_type, w.swap_points_mainnet])),
    ).toEqual({ evm: 2000, solana: 500 });
    const board = await request(t.app).get('/users/leaderboard').query({ network: 'mainnet' });
    expect(board.status).toBe(200);
    const entry = (
      board.body as {
        leaderboard: {
          username: string;
          domain_total_multiplied_points: number;
          domain_rank: number;
        }[];
      }
    ).leaderboard.find((e) => e.username === 'joiner.ctss');
    expect(entry).toMatchObject({ domain_total_multiplied_points: 2500, domain_rank: 1 });
  });
});
