/**
 * The demo data behind every endpoint: after the embedded start's loader (transfers, then users),
 * each route answers 200 with data, and a feed page of every served source domain is non-empty.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_CHAINS } from '@ctss/domain-types';
import request from 'supertest';
import { seedDemoData } from '../src/seed/index.js';
import { useTestApp } from './support/app.js';
import { TEST_NOW } from './support/deps.js';

describe('demo data', () => {
  const t = useTestApp();
  /** The body of a 200 answer to GET `path`. */
  const okBody = async (path: string) => (await request(t.app).get(path).expect(200)).body;

  beforeAll(async () => {
    await seedDemoData(t.db.database, {
      transactions: 3000,
      users: 40,
      seed: 42,
      now: TEST_NOW,
      method: 'insert',
    });
  });

  it('when every route is called, then each answers 200 with data', async () => {
    expect((await okBody('/transactionsmainnet')).transactions).toHaveLength(10);
    expect((await okBody('/transactions')).transactions).toHaveLength(10);
    expect((await okBody('/stats/mainnet/volumes')).total_volume).toBeGreaterThan(0);
    const hourly = (await okBody('/stats/mainnet/volumes/hourly')).volumes as {
      total_volume_usd: number;
    }[];
    expect(hourly.filter((b) => b.total_volume_usd > 0).length).toBeGreaterThan(12);
    const daily = (await okBody('/stats/mainnet/volumes/daily')).volumes as {
      total_volume_usd: number;
    }[];
    expect(daily.every((b) => b.total_volume_usd > 0)).toBe(true);
    expect((await okBody('/stats/mainnet/fees')).fees).toHaveLength(24);
    expect((await okBody('/stats/mainnet/transactions')).total_transactions).toBeGreaterThan(2000);
    expect((await okBody('/stats/mainnet/chain-shares')).chain_shares.length).toBeGreaterThan(15);
    expect((await okBody('/stats/mainnet/wallets')).unique_senders_count).toBeGreaterThan(50);
    expect((await okBody('/stats/wallets')).unique_senders_count).toBeGreaterThan(10);
    expect((await okBody('/users/leaderboard')).leaderboard.length).toBeGreaterThan(0);
  });

  it('when filtering the feed by each served source domain, then every one has records', async () => {
    for (const chain of DEFAULT_CHAINS) {
      const res = await request(t.app)
        .get('/transactionsmainnet')
        .query({ source_domain: String(chain.domain), limit: '1' })
        .expect(200);
      expect(res.body.transactions).toHaveLength(1);
    }
  });
});
