/**
 * The Gas Quote API while its Redis is away (a redis-server of the test's own, killed and
 * restarted): quotes and /tokenPrices keep coming from the in-process copy while its entries are
 * within PRICE_MAX_AGE_SECONDS, then fail fast with 500 MISSING_PRICE_DATA, never signing older
 * prices; the WebSocket feed survives; upgrades pass the rate limit and the per-address cap.
 */
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { EcdsaQuote } from '@ctss/domain-types';
import { buildTestApp, T0, type TestApp } from './support/app.js';
import { redisProcess, waitFor } from '@ctss/test-support';
import { connectWs, type TestWsClient } from './support/ws-client.js';

/** Port 6392 is this app's own test Redis. */
const redis = redisProcess(6392);
/** Generous bound for "answers fast" on a loaded 2-core machine (the store's timeout is 500 ms). */
const FAST_MS = 2000;
const QUOTE = '/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=true';

/** A refused WebSocket handshake as the client sees it. */
interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends a WebSocket upgrade request and resolves with a non-101 answer. @throws when upgraded. */
function refusedUpgrade(base: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base.replace('ws:', 'http:')}/subscribe`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error('the upgrade was accepted'));
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function timedFetch(url: string): Promise<{ res: Response; ms: number }> {
  const started = Date.now();
  const res = await fetch(url);
  return { res, ms: Date.now() - started };
}

describe('the Gas Quote API while Redis is away', () => {
  let t: TestApp;
  let base: string;
  const clients: TestWsClient[] = [];

  beforeAll(async () => {
    await redis.start();
    t = buildTestApp({ redisUrl: redis.url, env: { PRICE_MAX_AGE_SECONDS: '120' } });
    await t.snapshotFeeder.refresh();
    base = await t.listen();
  });

  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await redis.start().catch(() => undefined);
    await t.close();
    await redis.stop();
  });

  it('serves quotes and token prices from the in-process copy within the maximum age', async () => {
    const before = await fetch(`${base}${QUOTE}`);
    expect(before.status).toBe(200);
    const fee = EcdsaQuote.parse(await before.json()).fee;
    clients.push(await connectWs(`${base.replace('http:', 'ws:')}/subscribe`));

    await redis.stop();
    await waitFor(() => !t.kv.redis!.ready);
    // Past the snapshot's 1 s refresh, so every request would re-read the store.
    t.clock.advance(60_000);
    for (let i = 0; i < 3; i += 1) {
      const { res, ms } = await timedFetch(`${base}${QUOTE}`);
      expect(res.status).toBe(200);
      expect(EcdsaQuote.parse(await res.json()).fee).toBe(fee);
      expect(ms).toBeLessThan(FAST_MS);
    }
    const prices = await timedFetch(`${base}/tokenPrices`);
    expect(prices.res.status).toBe(200);
    expect(Object.keys((await prices.res.json()) as object).length).toBeGreaterThan(0);
    // Ready while the in-process prices are fresh; the lost store is reported, not fatal.
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', cache: 'unreachable' });
    // Quotes are signed at the test clock: the deadline follows it, the prices stay those observed at T0.
    t.clock.set(T0 + 120_000);
    expect((await fetch(`${base}${QUOTE}`)).status).toBe(200);
  });

  it('answers 500 MISSING_PRICE_DATA at once past the maximum age, never signing older prices', async () => {
    t.clock.set(T0 + 120_001);
    for (const path of [QUOTE, '/tokenPrices']) {
      const { res, ms } = await timedFetch(`${base}${path}`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('MISSING_PRICE_DATA');
      expect(ms).toBeLessThan(FAST_MS);
    }
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', cache: 'unreachable' });
  });

  it('keeps the WebSocket feed and the process alive, and quotes again once Redis and the feeder are back', async () => {
    // A new subscriber still connects (its latest-message read fails and is logged, not thrown).
    const late = await connectWs(`${base.replace('http:', 'ws:')}/subscribe`);
    clients.push(late);
    expect(t.deps.subscribeHub.clientCount()).toBe(2);
    await redis.start();
    await waitFor(() => t.kv.redis!.ready);
    t.clock.set(T0 + 300_000);
    // The feeder writes at the test clock and publishes: both subscribers get it (subscription renewed).
    await waitFor(async () => {
      await t.snapshotFeeder.refresh();
      return late.received.length > 0 && clients[0]!.received.length > 0;
    });
    await waitFor(async () => (await fetch(`${base}${QUOTE}`)).status === 200);
  });
});

describe('WebSocket upgrade admission', () => {
  it('refuses upgrades over the per-address cap with a 429 problem, and admits again when one closes', async () => {
    const t = buildTestApp({ env: { WS_MAX_CONNECTIONS_PER_IP: '2' } });
    const base = await t.listen();
    const wsUrl = `${base.replace('http:', 'ws:')}/subscribe`;
    try {
      const first = await connectWs(wsUrl);
      await connectWs(wsUrl);
      const refused = await refusedUpgrade(base);
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toBe('application/problem+json');
      expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(t.deps.subscribeHub.clientCount()).toBe(2);
      first.ws.close();
      await first.closed;
      await waitFor(async () => {
        const again = await connectWs(wsUrl).catch(() => undefined);
        again?.ws.terminate();
        return again !== undefined;
      });
    } finally {
      await t.close();
    }
  });

  it('counts upgrades against the HTTP rate limit of the same client', async () => {
    const t = buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    const base = await t.listen();
    try {
      expect((await fetch(`${base}/tokenPrices`)).status).not.toBe(429);
      const ws = await connectWs(`${base.replace('http:', 'ws:')}/subscribe`);
      ws.ws.terminate();
      const refused = await refusedUpgrade(base);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // And the HTTP side sees the upgrades' hits.
      expect((await fetch(`${base}/tokenPrices`)).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('takes the client address from X-Forwarded-For only when TRUST_PROXY trusts the peer', async () => {
    const t = buildTestApp({ env: { WS_MAX_CONNECTIONS_PER_IP: '1', TRUST_PROXY: 'loopback' } });
    const base = await t.listen();
    const wsUrl = `${base.replace('http:', 'ws:')}/subscribe`;
    try {
      const a = await connectWs(wsUrl, { 'X-Forwarded-For': '203.0.113.1' });
      // Another client behind the same proxy has its own slot.
      const b = await connectWs(wsUrl, { 'X-Forwarded-For': '203.0.113.2' });
      await expect(connectWs(wsUrl, { 'X-Forwarded-For': '203.0.113.1' })).rejects.toThrow(/429/);
      a.ws.terminate();
      b.ws.terminate();
    } finally {
      await t.close();
    }
  });
});
