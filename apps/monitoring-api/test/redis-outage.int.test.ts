/**
 * The Monitoring API while its Redis is away (a redis-server of the test's own, killed and
 * restarted): nonce issue and binding answer 503 DEPENDENCY_UNAVAILABLE with Retry-After, fast;
 * the feeds, statistics and leaderboard keep answering from the database; nonces work again once
 * Redis is back, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKvStore, createLogger, type KvStore } from '@ctss/server-kit';
import request from 'supertest';
import { startTestApp, type TestApp } from './support/app.js';
import { redisProcess, waitFor } from '@ctss/test-support';
import { insertUser } from './users/builders.js';
import { evmWallet } from './users/wallets.js';

/** Port 6393 is this app's own test Redis. */
const redis = redisProcess(6393);
/** Generous bound for "answers fast" on a loaded 2-core machine (the store's timeout is 500 ms). */
const FAST_MS = 2000;

describe('the Monitoring API while Redis is away', () => {
  let t: TestApp;
  let kv: KvStore;
  const wallet = evmWallet();
  const askNonce = () =>
    request(t.app)
      .get('/users/messages')
      .query({ username: 'alice.ctss', address: wallet.address, chain_type: 'evm' });

  beforeAll(async () => {
    await redis.start();
    kv = createKvStore({
      redisUrl: redis.url,
      prefix: `test:mon:outage:${Date.now()}:`,
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    t = await startTestApp({ kv });
    await insertUser(t.db.knex, { username: 'alice.ctss' });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('issues nonces while Redis is up', async () => {
    expect((await askNonce()).status).toBe(200);
  });

  it('answers nonce issue and binding with 503 DEPENDENCY_UNAVAILABLE and Retry-After, fast', async () => {
    await redis.stop();
    await waitFor(() => !kv.redis!.ready);
    let started = Date.now();
    const issue = await askNonce();
    expect(Date.now() - started).toBeLessThan(FAST_MS);
    expect(issue.status).toBe(503);
    expect(issue.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(issue.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(issue.body).toMatchObject({ status: 503, code: 'DEPENDENCY_UNAVAILABLE' });

    const message = `Wallet binding request: alice.ctss\nNonce: ${'ab'.repeat(16)}`;
    const signed = await wallet.sign(message);
    started = Date.now();
    const verify = await request(t.app).post('/users/verify').send({
      username: 'alice.ctss',
      address: wallet.address,
      chain_type: 'evm',
      type: 'bind',
      signature: signed.signature,
      message: signed.message,
    });
    expect(Date.now() - started).toBeLessThan(FAST_MS);
    expect(verify.status).toBe(503);
    expect(verify.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(verify.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    // Bad input is still a 400 first: the shape is checked before the store is needed.
    const bad = await request(t.app).post('/users/verify').send({
      username: 'alice.ctss',
      address: wallet.address,
      chain_type: 'evm',
      type: 'bind',
      signature: '0x',
      message: 'hello',
    });
    expect(bad.status).toBe(400);
  });

  it('keeps the feeds, statistics and leaderboard answering from the database', async () => {
    for (const path of ['/transactions', '/stats/mainnet/volumes', '/users/leaderboard']) {
      const started = Date.now();
      const res = await request(t.app).get(path);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
      expect(res.status).toBe(200);
    }
  });

  it('stays ready, reporting the cache as unreachable (every replica shares the outage)', async () => {
    const ready = await request(t.app).get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: 'ok', cache: 'unreachable' });
  });

  it('issues nonces again once Redis is back, on the same store', async () => {
    await redis.start();
    await waitFor(() => kv.redis!.ready);
    const res = await askNonce();
    expect(res.status).toBe(200);
    expect(res.body.nonce).toMatch(/^[0-9a-f]{32}$/);
  });
});
