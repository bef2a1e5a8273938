/**
 * Cross-cutting behaviour of the app over real HTTP: probes, metrics, OpenAPI and docs, CORS,
 * security headers, rate limiting (Redis-backed when REDIS_URL is set) and unknown routes.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { createDatabase } from '../src/db/connect.js';
import { useTestApp } from './support/app.js';
import { buildTestDeps } from './support/deps.js';

describe('probes, metrics, docs, CORS, headers', () => {
  const t = useTestApp();

  it('when probed, then /health is ok and /ready reports database and cache reachable', async () => {
    expect((await request(t.app).get('/health').expect(200)).body).toEqual({ status: 'ok' });
    const ready = await request(t.app).get('/ready').expect(200);
    expect(ready.body).toEqual({
      status: 'ready',
      database: 'ok',
      cache: process.env.REDIS_URL ? 'redis' : 'memory',
    });
  });

  it('when the database is unreachable, then /ready stays 200 and reports it, and /health stays ok', async () => {
    // Every replica shares the outage: failing readiness would take them all out of the Service
    // and stale statistics would reach nobody (docs/operations.md "Readiness").
    const dead = createDatabase('postgres://postgres@127.0.0.1:1/none', { poolMax: 1 });
    const broken = buildTestDeps({ database: dead });
    try {
      const brokenApp = createApp(broken);
      const res = await request(brokenApp).get('/ready').expect(200);
      expect(res.body).toMatchObject({ status: 'ready', database: 'unreachable' });
      expect((await request(brokenApp).get('/health').expect(200)).body).toEqual({
        status: 'ok',
      });
      const metrics = await request(brokenApp).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/dependency_credentials_refused\{dependency="database"\} 0/);
    } finally {
      await broken.close();
      await dead.close();
    }
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'when PostgreSQL refuses the credentials, then /ready is a 503 problem, /health is degraded and the metric is 1',
    async () => {
      // A role the server does not know: FATAL 28000 from a real PostgreSQL (PGlite has no roles).
      const url = new URL(process.env.DATABASE_URL!);
      url.username = 'no_such_role_ctss';
      const refused = createDatabase(url.toString(), { poolMax: 1 });
      const deps = buildTestDeps({ database: refused });
      try {
        const app = createApp(deps);
        const res = await request(app).get('/ready').expect(503);
        expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
        expect(res.body.detail).toContain('database: credentials refused');
        expect((await request(app).get('/health').expect(200)).body).toMatchObject({
          status: 'degraded',
          credentials_refused: ['database'],
        });
        const metrics = await request(app).get('/metrics').expect(200);
        expect(metrics.text).toMatch(/dependency_credentials_refused\{dependency="database"\} 1/);
        // Requests get a retryable 503, not a 500 per request.
        const feed = await request(app).get('/stats/mainnet/transactions');
        expect(feed.status).toBe(503);
        expect(feed.body.code).toBe('DEPENDENCY_UNAVAILABLE');
      } finally {
        await deps.close();
        await refused.close();
      }
    },
  );

  it('when requests were served, then /metrics exposes them in the Prometheus format', async () => {
    await request(t.app).get('/stats/mainnet/transactions').expect(200);
    const res = await request(t.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(
      /monitoring_test_http_requests_total\{method="GET",route="\/stats\/mainnet\/transactions",status="200"\} 1/,
    );
  });

  it('when fetching /openapi.json, then every route of the API is documented, users routes included', async () => {
    const res = await request(t.app).get('/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(res.body.paths as object);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/transactionsmainnet',
        '/transactions',
        '/stats/mainnet/volumes',
        '/stats/mainnet/volumes/hourly',
        '/stats/mainnet/volumes/daily',
        '/stats/mainnet/fees',
        '/stats/mainnet/transactions',
        '/stats/mainnet/chain-shares',
        '/stats/mainnet/wallets',
        '/stats/wallets',
        '/users/leaderboard',
        '/users',
      ]),
    );
    expect(res.body.components.schemas.TransactionRecord.properties.deposit_amount).toMatchObject({
      type: 'integer',
    });
    const docs = await request(t.app).get('/docs/').expect(200);
    expect(docs.text).toContain('swagger');
  });

  it('when a browser sends an Origin, then CORS allows it and security headers are set', async () => {
    const res = await request(t.app)
      .get('/health')
      .set('Origin', 'https://explorer.example')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const preflight = await request(t.app)
      .options('/transactionsmainnet')
      .set('Origin', 'https://explorer.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
  });

  it('when CORS_ORIGINS lists the explorer, then only that origin is allowed', async () => {
    const scoped = buildTestDeps({
      database: t.db.database,
      env: { CORS_ORIGINS: 'https://explorer.example' },
    });
    try {
      const scopedApp = createApp(scoped);
      const allowed = await request(scopedApp)
        .get('/health')
        .set('Origin', 'https://explorer.example');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://explorer.example');
      const other = await request(scopedApp).get('/health').set('Origin', 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await scoped.close();
    }
  });

  it('when a route does not exist, then it is a 404 problem', async () => {
    const res = await request(t.app).get('/nope').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe(`rate limiting (${process.env.REDIS_URL ? 'Redis store' : 'in-process store'})`, () => {
  const t = useTestApp({
    env: {
      RATE_LIMIT_PER_MINUTE: '3',
      API_KEY_RATE_LIMIT_PER_MINUTE: '5',
      API_KEYS: 'k-partner,k-other',
    },
  });

  it('when a client exceeds its limit, then it gets 429 RATE_LIMITED with Retry-After; headers count down', async () => {
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i += 1) {
      last = await request(t.app).get('/stats/mainnet/wallets');
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers['ratelimit-policy']).toBeDefined();
        expect(last.headers['ratelimit']).toBeDefined();
        expect(last.headers['x-ratelimit-remaining']).toBe('2');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers['retry-after']).toMatch(/^[0-9]+$/);
    expect(last!.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    await request(t.app).get('/health').expect(200);
  });

  it('when a client presents an API key, then it gets the higher tier', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(
        (await request(t.app).get('/stats/wallets').set('X-API-Key', 'k-partner')).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
