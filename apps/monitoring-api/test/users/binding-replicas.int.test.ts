/**
 * Two app replicas sharing one Redis: a nonce issued by one replica is accepted by the other, and
 * once used it is refused by both (docs/decisions.md "D11. Binding message and nonce rules":
 * nonces are single-use across replicas). Needs
 * REDIS_URL; skipped without it (the in-process store is per replica by design).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKvStore, type KvStore } from '@ctss/server-kit';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildTestDeps, type TestDeps } from '../support/deps.js';
import { insertUser } from './builders.js';
import { evmWallet } from './wallets.js';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl)
  console.info('binding-replicas: REDIS_URL is not set, skipping the shared-Redis replica test');
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('wallet binding across two replicas sharing Redis', () => {
  let db: TestDatabase;
  const stores: KvStore[] = [];
  const deps: TestDeps[] = [];
  let replicaA: Express;
  let replicaB: Express;

  beforeAll(async () => {
    db = await createTestDatabase();
    await insertUser(db.knex, { username: 'alice.ctss' });
    const prefix = `ctss:test:${randomBytes(6).toString('hex')}:`;
    for (let i = 0; i < 2; i += 1) {
      const kv = createKvStore({ redisUrl, prefix });
      stores.push(kv);
      deps.push(
        buildTestDeps({ database: db.database, kv, env: { RATE_LIMIT_PER_MINUTE: '1000000' } }),
      );
    }
    [replicaA, replicaB] = deps.map((d) => createApp(d)) as [Express, Express];
  });
  afterAll(async () => {
    for (const kv of stores) await kv.close();
    await db.drop();
  });

  it('when a nonce from replica A is used at replica B, then it binds, and a replay at either replica is a 410', async () => {
    const wallet = evmWallet();
    const issued = await request(replicaA)
      .get('/users/messages')
      .query({ username: 'alice.ctss', address: wallet.address, chain_type: 'evm' });
    expect(issued.status).toBe(200);
    const signed = await wallet.sign((issued.body as { message: string }).message);
    const body = {
      username: 'alice.ctss',
      address: wallet.address,
      chain_type: 'evm',
      type: 'bind',
      ...signed,
    };
    expect((await request(replicaB).post('/users/verify').send(body)).status).toBe(200);
    expect((await request(replicaA).post('/users/verify').send(body)).status).toBe(410);
    expect((await request(replicaB).post('/users/verify').send(body)).status).toBe(410);
  });
});
