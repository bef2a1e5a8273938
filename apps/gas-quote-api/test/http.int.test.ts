/**
 * The HTTP plumbing of the Gas Quote API over real HTTP: rate limiting (headers, 429, API-key
 * tier), CORS for the bridge widget, helmet headers, probes, metrics, OpenAPI and the docs page,
 * and unknown routes.
 */
import request from 'supertest';
import { buildTestApp, type TestApp } from './support/app.js';

const apps: TestApp[] = [];
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const a = buildTestApp({ env });
  apps.push(a);
  await a.snapshotFeeder.refresh();
  return a;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const QUOTE = '/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=false';

describe('rate limiting', () => {
  it('sends RateLimit headers and answers 429 RATE_LIMITED with Retry-After beyond the limit', async () => {
    const t = await app({ RATE_LIMIT_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) {
      const res = await request(t.gas.app).get(QUOTE);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('3;w=60');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      expect(res.headers.ratelimit).toContain(`remaining=${2 - i}`);
    }
    const limited = await request(t.gas.app).get('/tokenPrices');
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('gives API keys the higher tier and never limits the probes', async () => {
    const t = await app({
      RATE_LIMIT_PER_MINUTE: '1',
      API_KEYS: 'partner-key',
      API_KEY_RATE_LIMIT_PER_MINUTE: '5',
    });
    expect((await request(t.gas.app).get(QUOTE)).status).toBe(200);
    expect((await request(t.gas.app).get(QUOTE)).status).toBe(429);
    for (let i = 0; i < 4; i++) {
      const res = await request(t.gas.app).get(QUOTE).set('X-API-Key', 'partner-key');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('5;w=60');
    }
    expect((await request(t.gas.app).get(QUOTE).set('X-API-Key', 'wrong-key')).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await request(t.gas.app).get('/health')).status).toBe(200);
  });
});

describe('CORS and security headers', () => {
  it('allows the configured bridge widget origin, including preflight, and not others', async () => {
    const t = await app({ CORS_ORIGINS: 'https://bridge.example,https://staging.bridge.example' });
    const res = await request(t.gas.app).get(QUOTE).set('Origin', 'https://bridge.example');
    expect(res.headers['access-control-allow-origin']).toBe('https://bridge.example');
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    const preflight = await request(t.gas.app)
      .options('/getEd25519Sig_native')
      .set('Origin', 'https://staging.bridge.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://staging.bridge.example');
    const other = await request(t.gas.app).get(QUOTE).set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows any origin by default', async () => {
    const t = await app();
    const res = await request(t.gas.app).get('/tokenPrices').set('Origin', 'https://any.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('sets helmet security headers and hides the framework', async () => {
    const t = await app();
    const res = await request(t.gas.app).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('probes', () => {
  it('/health reports the snapshot price source and the signers', async () => {
    const t = await app();
    const res = await request(t.gas.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      snapshot: true,
      priceSource: 'snapshot',
      feederInProcess: true,
    });
    expect(res.body.ecdsaSigner).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('/health reports live sources when chain RPC URLs are configured', async () => {
    const t = await app({ RPC_URL_0: 'http://127.0.0.1:9/rpc', FEEDER_IN_PROCESS: 'false' });
    const res = await request(t.gas.app).get('/health');
    expect(res.body).toMatchObject({
      snapshot: false,
      priceSource: 'live',
      feederInProcess: false,
    });
  });

  it('/ready is 200 with fresh prices and 503 once they are stale, while /health stays 200', async () => {
    const t = await app();
    const ready = await request(t.gas.app).get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', cache: 'ok', staleDomains: [] });
    t.clock.advance(121_000);
    const stale = await request(t.gas.app).get('/ready');
    expect(stale.status).toBe(503);
    expect(stale.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(stale.body).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      cache: 'ok',
      freshDomains: [],
    });
    expect((await request(t.gas.app).get('/health')).status).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('exposes request counts and latency by route and status, quotes signed and price ages', async () => {
    const t = await app();
    await request(t.gas.app).get(QUOTE);
    await request(t.gas.app).get('/getEcdsaSig_native?localDomain=x');
    t.clock.advance(30_000);
    const res = await request(t.gas.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(
      /gas_quote_http_requests_total\{method="GET",route="\/getEcdsaSig_native",status="200"\} 1/,
    );
    expect(res.text).toMatch(
      /gas_quote_http_requests_total\{method="GET",route="\/getEcdsaSig_native",status="400"\} 1/,
    );
    expect(res.text).toMatch(
      /gas_quote_http_request_duration_seconds_bucket\{le="[0-9.]+",method="GET",route="\/getEcdsaSig_native",status="200"\}/,
    );
    expect(res.text).toContain('gas_quote_quotes_signed_total{scheme="ecdsa",cached="false"} 1');
    expect(res.text).toContain('gas_quote_price_age_seconds{domain="0",kind="gas"} 30');
    expect(res.text).toContain('gas_quote_price_age_seconds{domain="5",kind="usd"} 30');
    expect(res.text).toContain('gas_quote_websocket_clients 0');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the schemas, and the docs page', async () => {
    const t = await app();
    const res = await request(t.gas.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/getEcdsaSig_native',
        '/getEd25519Sig_native',
        '/tokenPrices',
        '/health',
        '/ready',
        '/subscribe',
      ]),
    );
    const params = (
      res.body.paths['/getEcdsaSig_native'].get.parameters as { name: string; in: string }[]
    ).map((p) => p.name);
    expect(params.sort()).toEqual(['destinationDomain', 'isNative', 'isV2', 'localDomain']);
    expect(res.body.components.schemas.EcdsaQuote.properties.signature).toBeDefined();
    expect(res.body.components.schemas.FeesMessage).toBeDefined();
    const docs = await request(t.gas.app).get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');
  });
});

describe('unknown routes', () => {
  it('answer 404 NOT_FOUND problem details', async () => {
    const t = await app();
    for (const res of [
      await request(t.gas.app).get('/getSig'),
      await request(t.gas.app).post('/getEcdsaSig_native'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
  });
});
