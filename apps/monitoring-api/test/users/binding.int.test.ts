/**
 * Wallet binding over real HTTP (supertest) against a real database and the KV store (Redis when
 * REDIS_URL is set): nonces from GET /users/messages, signatures made by each chain's SDK,
 * POST /users/verify to bind and unbind, and every way it must fail.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { TEST_NOW } from '../support/deps.js';
import { insertUser } from './builders.js';
import { useTestApp } from '../support/app.js';
import { aptosWallet, evmWallet, solanaWallet, suiWallet, type TestWallet } from './wallets.js';

interface NonceBody {
  nonce: string;
  expires_at: string;
  message: string;
}

describe('wallet binding: GET /users/messages and POST /users/verify', () => {
  const t = useTestApp({ clock: () => now });
  let now = TEST_NOW.getTime();

  beforeAll(async () => {
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'])
      await insertUser(t.db.knex, { username: `${name}.ctss` });
  });
  const askNonce = async (username: string, wallet: { chainType: string; address: string }) =>
    request(t.app)
      .get('/users/messages')
      .query({ username, address: wallet.address, chain_type: wallet.chainType });

  const nonceFor = async (username: string, wallet: TestWallet): Promise<NonceBody> => {
    const res = await askNonce(username, wallet);
    expect(res.status).toBe(200);
    return res.body as NonceBody;
  };

  const signedBody = async (
    username: string,
    wallet: TestWallet,
    type: 'bind' | 'unbind',
    text?: string,
    authorizer?: TestWallet,
  ) => {
    const message = text ?? (await nonceFor(username, wallet)).message;
    const signed = await wallet.sign(message);
    // The authorizer signs the same issued text (an Aptos wallet its own envelope of it).
    const bindingText =
      wallet.chainType === 'aptos' && signed.message !== message ? message : message;
    const bySecond = authorizer ? await authorizer.sign(bindingText) : undefined;
    return {
      username,
      address: wallet.address,
      chain_type: wallet.chainType,
      type,
      signature: signed.signature,
      message: signed.message,
      ...(wallet.publicKey ? { public_key: wallet.publicKey } : {}),
      ...(authorizer && bySecond
        ? {
            authorizer: {
              address: authorizer.address,
              chain_type: authorizer.chainType,
              signature: bySecond.signature,
              ...(authorizer.publicKey ? { public_key: authorizer.publicKey } : {}),
              ...(bySecond.message !== signed.message ? { message: bySecond.message } : {}),
            },
          }
        : {}),
    };
  };

  const verify = async (body: unknown) =>
    request(t.app)
      .post('/users/verify')
      .send(body as object);
  const boundWallets = async (username: string) =>
    (await request(t.app).get('/users').query({ domains: username })).body as {
      binded_wallets: Record<string, string>;
    };

  it('when a nonce is asked for, then it is fresh, expires in NONCE_TTL_SECONDS and comes with the exact text to sign', async () => {
    const first = await nonceFor('Alice.CTSS', evmWallet());
    const second = await nonceFor('alice.ctss', evmWallet());
    expect(first.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(first.nonce).not.toBe(second.nonce);
    expect(first.expires_at).toBe(new Date(now + 300_000).toISOString());
    expect(first.message).toBe(`Wallet binding request: alice.ctss\nNonce: ${first.nonce}`);
  });

  let members = 0;
  describe.each([
    ['evm', evmWallet],
    ['solana', solanaWallet],
    ['sui', suiWallet],
    ['aptos (raw message)', () => aptosWallet()],
    ['aptos (wallet full message)', () => aptosWallet({ fullMessage: true })],
  ])('with a %s wallet', (_chain, makeWallet) => {
    it('when signed with the wallet and an owner wallet, then it binds, unbinds, refuses replays and refuses unbinding twice', async () => {
      const wallet = makeWallet();
      const slot = { evm: 'evm', solana: 'sol', sui: 'sui', aptos: 'apt' }[wallet.chainType];
      // A username joined with a wallet of another chain; each new wallet needs its signature too.
      const owner = wallet.chainType === 'evm' ? solanaWallet() : evmWallet();
      const name = `member-${++members}.ctss`;
      expect((await verify(await signedBody(name, owner, 'bind'))).status).toBe(200);
      const bind = await signedBody(name, wallet, 'bind', undefined, owner);
      const bound = await verify(bind);
      expect([bound.status, bound.body]).toEqual([200, { success: true, username: name }]);
      expect((await boundWallets(name)).binded_wallets[slot]).not.toBe('');

      const replay = await verify(bind);
      expect([replay.status, (replay.body as { code: string }).code]).toEqual([
        410,
        'NONCE_EXPIRED',
      ]);

      const unbind = await signedBody(name, wallet, 'unbind');
      const unbound = await verify(unbind);
      expect([unbound.status, unbound.body]).toEqual([200, { success: true, username: name }]);
      expect((await boundWallets(name)).binded_wallets[slot]).toBe('');
      expect((await verify(unbind)).status).toBe(410);

      const again = await verify(await signedBody(name, wallet, 'unbind'));
      expect([again.status, (again.body as { code: string }).code]).toEqual([409, 'NOT_BOUND']);
    });
  });

  const carolSol = solanaWallet();
  it('when a wallet bound to one username is bound to another, then it is a 409 ALREADY_BOUND', async () => {
    expect((await verify(await signedBody('carol.ctss', carolSol, 'bind'))).status).toBe(200);
    const res = await verify(await signedBody('dave.ctss', carolSol, 'bind'));
    expect([res.status, (res.body as { code: string }).code]).toEqual([409, 'ALREADY_BOUND']);
    const again = await verify(
      await signedBody('carol.ctss', carolSol, 'bind', undefined, carolSol),
    );
    expect(again.status).toBe(409);
  });

  it('when a username that already has a wallet of the chain binds a second, then it is a 409 ALREADY_BOUND', async () => {
    const evm = evmWallet();
    expect(
      (await verify(await signedBody('carol.ctss', evm, 'bind', undefined, carolSol))).status,
    ).toBe(200);
    const res = await verify(await signedBody('carol.ctss', evmWallet(), 'bind', undefined, evm));
    expect([res.status, (res.body as { code: string }).code]).toEqual([409, 'ALREADY_BOUND']);
  });

  it('when two usernames bind one wallet at the same time, then exactly one wins and the other gets 409', async () => {
    const wallet = evmWallet();
    const [a, b] = await Promise.all([
      signedBody('dave.ctss', wallet, 'bind'),
      signedBody('erin.ctss', wallet, 'bind'),
    ]);
    const statuses = (await Promise.all([verify(a), verify(b)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
  });

  it('when one signed request is sent twice at the same time, then the nonce is used once (200 and 410)', async () => {
    const body = await signedBody('alice.ctss', suiWallet(), 'bind');
    const statuses = (await Promise.all([verify(body), verify(body)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410]);
  });

  it('when the nonce has expired, then it is a 410 NONCE_EXPIRED', async () => {
    const wallet = evmWallet();
    const body = await signedBody('alice.ctss', wallet, 'bind');
    now += 301_000;
    try {
      const res = await verify(body);
      expect([res.status, (res.body as { code: string }).code]).toEqual([410, 'NONCE_EXPIRED']);
    } finally {
      now = TEST_NOW.getTime();
    }
  });

  it('when the nonce was never issued, then it is a 410 NONCE_EXPIRED', async () => {
    const wallet = evmWallet();
    const res = await verify(
      await signedBody(
        'alice.ctss',
        wallet,
        'bind',
        `Wallet binding request: alice.ctss\nNonce: ${'ab'.repeat(16)}`,
      ),
    );
    expect([res.status, (res.body as { code: string }).code]).toEqual([410, 'NONCE_EXPIRED']);
  });

  it('when the signature covers another message, then it is a 401 INVALID_SIGNATURE and the nonce stays usable', async () => {
    const wallet = evmWallet();
    const issued = await nonceFor('frank.ctss', wallet);
    const other = await nonceFor('frank.ctss', wallet);
    const body = await signedBody('frank.ctss', wallet, 'bind', other.message);
    const res = await verify({ ...body, message: issued.message });
    expect([res.status, (res.body as { code: string }).code]).toEqual([401, 'INVALID_SIGNATURE']);
    expect(
      (await verify(await signedBody('frank.ctss', wallet, 'bind', issued.message))).status,
    ).toBe(200);
  });

  it('when another key signs for the address, then it is a 401 INVALID_SIGNATURE', async () => {
    for (const make of [evmWallet, solanaWallet, suiWallet, () => aptosWallet()]) {
      const owner = make();
      const thief = make();
      const message = (await nonceFor('erin.ctss', owner)).message;
      const forged = await thief.sign(message);
      const res = await verify({
        username: 'erin.ctss',
        address: owner.address,
        chain_type: owner.chainType,
        type: 'bind',
        signature: forged.signature,
        message: forged.message,
        ...(thief.publicKey ? { public_key: thief.publicKey } : {}),
      });
      expect([owner.chainType, res.status, (res.body as { code: string }).code]).toEqual([
        owner.chainType,
        401,
        'INVALID_SIGNATURE',
      ]);
    }
  });

  it('when the message was issued for another address, username or chain, then it is a 401 INVALID_SIGNATURE', async () => {
    const wallet = evmWallet();
    const forOther = (await nonceFor('alice.ctss', evmWallet())).message;
    expect((await verify(await signedBody('alice.ctss', wallet, 'bind', forOther))).status).toBe(
      401,
    );
    const forBob = (await nonceFor('bob.ctss', wallet)).message;
    const asAlice = await signedBody('alice.ctss', wallet, 'bind', forBob);
    expect((await verify(asAlice)).status).toBe(401);
  });

  it('when an aptos body has no public_key, then it is a 400 INVALID_BODY', async () => {
    const wallet = aptosWallet();
    const { public_key: _omitted, ...body } = await signedBody('alice.ctss', wallet, 'bind');
    const res = await verify(body);
    expect([res.status, (res.body as { code: string; detail: string }).code]).toEqual([
      400,
      'INVALID_BODY',
    ]);
    expect((res.body as { detail: string }).detail).toContain('public_key');
  });

  it('when the body is not valid JSON, then it is a 400 INVALID_BODY problem', async () => {
    const res = await request(t.app)
      .post('/users/verify')
      .set('content-type', 'application/json')
      .send('{"username": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'INVALID_BODY' });
  });

  it('when the body is not JSON at all, then it is a 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(t.app)
      .post('/users/verify')
      .set('content-type', 'text/plain')
      .send('username=alice');
    expect([res.status, (res.body as { code: string }).code]).toEqual([
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    const form = await request(t.app)
      .post('/users/verify')
      .type('form')
      .send({ username: 'alice.ctss' });
    expect(form.status).toBe(415);
  });

  it('when fields are missing, wrong or malformed, then it is a 400 INVALID_BODY naming the problem', async () => {
    const wallet = evmWallet();
    const good = await signedBody('fields.ctss', wallet, 'bind');
    const cases: [string, unknown][] = [
      ['empty object', {}],
      ['array', [good]],
      ['unknown chain type', { ...good, chain_type: 'tron' }],
      ['unknown type', { ...good, type: 'rebind' }],
      ['number as username', { ...good, username: 42 }],
      ['malformed address', { ...good, address: '0x1234' }],
      ['malformed signature', { ...good, signature: 'not-a-signature' }],
      ['message not a binding request', { ...good, message: 'hello' }],
      ['message with a trailing newline', { ...good, message: `${good.message}\n` }],
      ['10 kB message', { ...good, message: 'x'.repeat(10_000) }],
    ];
    for (const [name, body] of cases) {
      const res = await verify(body);
      expect([name, res.status, (res.body as { code: string }).code]).toEqual([
        name,
        400,
        'INVALID_BODY',
      ]);
    }
    // None of the above consumed the nonce.
    expect((await verify(good)).status).toBe(200);
  });

  it.each([
    [
      'an unknown chain type',
      {
        username: 'alice.ctss',
        address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        chain_type: 'tron',
      },
      400,
    ],
    [
      'an address of another chain',
      {
        username: 'alice.ctss',
        address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
        chain_type: 'evm',
      },
      400,
    ],
    [
      'a username without the suffix',
      {
        username: 'alice',
        address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        chain_type: 'evm',
      },
      400,
    ],
    ['a missing address', { username: 'alice.ctss', chain_type: 'evm' }, 400],
    [
      'a 10 kB username',
      {
        username: `${'a'.repeat(10_000)}.ctss`,
        address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        chain_type: 'evm',
      },
      400,
    ],
    [
      'an unused username with a look-alike letter',
      {
        username: '\u0430lice.ctss',
        address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        chain_type: 'evm',
      },
      400,
    ],
  ])(
    'when GET /users/messages has %s, then it is refused with a problem body',
    async (_case, query, status) => {
      const res = await request(t.app).get('/users/messages').query(query);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({
        status,
        code: _case.includes('look-alike') ? 'INVALID_USERNAME' : 'INVALID_QUERY',
      });
    },
  );
});
