/**
 * WebSocket /subscribe: when a client connects it gets the latest `fees` and `tokenPrices`, then
 * every update; other paths are refused; slow and dead clients are dropped without hurting the
 * others; shutdown closes clients with 1001; updates reach clients of every replica through Redis.
 */
import { WebSocket } from 'ws';
import { FeesMessage, TokenPricesMessage } from '@ctss/domain-types';
import { rawExchange, upgradeRequest } from '@ctss/test-support';
import { UPDATES_CHANNEL } from '../src/channels.js';
import { CLOSE_GOING_AWAY } from '../src/feed/hub.js';
import { buildTestApp, uniquePrefix, usingRedis, type TestApp } from './support/app.js';
import { connectWs } from './support/ws-client.js';

const apps: TestApp[] = [];
function app(opts: Parameters<typeof buildTestApp>[0] = {}): TestApp {
  const a = buildTestApp(opts);
  apps.push(a);
  return a;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const wsUrl = (base: string, path = '/subscribe') => `${base.replace('http', 'ws')}${path}`;

/** A client of `t`'s /subscribe, once `t` listens. */
const subscribe = async (t: TestApp) => connectWs(wsUrl(await t.listen()));

/** Expects `t`'s gas_quote_websocket_dropped_total to have counted one client dropped for `reason`. */
async function expectDropped(t: TestApp, reason: 'slow' | 'dead'): Promise<void> {
  expect(
    await t.metrics.registry.getSingleMetricAsString('gas_quote_websocket_dropped_total'),
  ).toContain(`reason="${reason}"} 1`);
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a client of /subscribe', () => {
  it('receives the latest fees and tokenPrices on connect, then each update', async () => {
    const t = app();
    await t.snapshotFeeder.refresh();
    const client = await subscribe(t);
    const fees = FeesMessage.parse(await client.next());
    expect(Object.keys(fees.data)).toContain('0');
    expect(fees.data['0']?.fee['3']).toEqual({ native: '26666666666667', usd: 0.08 });
    const prices = TokenPricesMessage.parse(await client.next());
    expect(prices.data['5']).toBe('150');

    t.clock.advance(15_000);
    await t.snapshotFeeder.refresh();
    expect(FeesMessage.parse(await client.next()).type).toBe('fees');
    expect(TokenPricesMessage.parse(await client.next()).type).toBe('tokenPrices');
    expect(t.deps.subscribeHub.clientCount()).toBe(1);
    const metrics = await t.metrics.registry.getSingleMetricAsString('gas_quote_websocket_clients');
    expect(metrics).toContain('gas_quote_websocket_clients 1');
    client.ws.close();
  });

  it('connects before any price exists and gets the first update when it comes', async () => {
    const t = app();
    const client = await subscribe(t);
    await t.snapshotFeeder.refresh();
    expect((await client.next()) as { type: string }).toMatchObject({ type: 'fees' });
    client.ws.close();
  });

  it('is refused on any other path', async () => {
    const t = app();
    const base = await t.listen();
    await expect(connectWs(wsUrl(base, '/other'))).rejects.toThrow(/404/);
    await expect(connectWs(wsUrl(base, '/subscribe/x'))).rejects.toThrow(/404/);
  });

  it('is refused from a browser origin outside CORS_ORIGINS', async () => {
    const t = app({ env: { CORS_ORIGINS: 'https://bridge.example' } });
    const base = await t.listen();
    await expect(connectWs(wsUrl(base), { Origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const refused = await rawExchange(
      Number(new URL(base).port),
      upgradeRequest('/subscribe').replace('\r\n\r\n', '\r\nOrigin: https://evil.example\r\n\r\n'),
    );
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const allowed = await connectWs(wsUrl(base), { Origin: 'https://bridge.example' });
    const noOrigin = await connectWs(wsUrl(base)); // non-browser clients send no Origin
    expect(t.deps.subscribeHub.clientCount()).toBe(2);
    allowed.ws.close();
    noOrigin.ws.close();
  });

  it('is dropped when it does not read, while a reading client gets every message', async () => {
    const t = app({ env: { WS_MAX_BUFFERED_BYTES: String(512 * 1024) } });
    const base = await t.listen();
    const slow = await connectWs(wsUrl(base));
    const healthy = await connectWs(wsUrl(base));
    // Stop reading: the kernel buffers fill and the server's send buffer grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const payload = JSON.stringify({ type: 'tokenPrices', data: { '0': '1'.repeat(100_000) } });
    const count = 300; // 30 MB, far beyond any socket buffer
    // Published one at a time as the healthy client keeps up, as the feeder does every interval.
    for (let i = 1; i <= count && t.deps.subscribeHub.clientCount() === 2; i++) {
      await t.kv.publish(UPDATES_CHANNEL, payload);
      await waitFor(() => healthy.received.length === i, `the healthy client to get message ${i}`);
    }
    expect(t.deps.subscribeHub.clientCount()).toBe(1);
    await t.kv.publish(
      UPDATES_CHANNEL,
      JSON.stringify({ type: 'tokenPrices', data: { '0': '2' } }),
    );
    await waitFor(
      () => (healthy.received.at(-1) as { data: Record<string, string> }).data['0'] === '2',
      'the healthy client to keep receiving',
    );
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
    await expectDropped(t, 'slow');
    healthy.ws.close();
  });

  it('is dropped when it stops answering pings', async () => {
    const t = app({ env: { WS_PING_INTERVAL_SECONDS: '1' } });
    const base = await t.listen();
    const dead = await connectWs(wsUrl(base));
    const alive = await connectWs(wsUrl(base));
    (dead.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await waitFor(
      () => t.deps.subscribeHub.clientCount() === 1,
      'the dead client to be dropped',
      10_000,
    );
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    await expectDropped(t, 'dead');
    alive.ws.close();
  });

  it('is closed with 1001 when the app shuts down', async () => {
    const t = app();
    const client = await subscribe(t);
    await t.deps.subscribeHub.close();
    await expect(client.closed).resolves.toBe(CLOSE_GOING_AWAY);
  });
});

(usingRedis ? describe : describe.skip)('two replicas sharing one Redis', () => {
  it('fan out an update published by the feeder on one replica to clients of the other', async () => {
    const prefix = uniquePrefix('fanout');
    const a = app({ prefix });
    const b = app({ prefix });
    const [, baseB] = await Promise.all([a.listen(), b.listen()]);
    const client = await connectWs(wsUrl(baseB));
    await a.snapshotFeeder.refresh();
    expect(FeesMessage.parse(await client.next()).type).toBe('fees');
    expect(TokenPricesMessage.parse(await client.next()).type).toBe('tokenPrices');
    // A client connecting to B afterwards gets the snapshot A's feeder stored.
    const late = await connectWs(wsUrl(baseB));
    expect(FeesMessage.parse(await late.next()).type).toBe('fees');
    client.ws.close();
    late.ws.close();
  });
});
if (!usingRedis)
  console.log(
    'subscribe.int.test.ts: REDIS_URL is not set; skipping the two-replica Redis fan-out test',
  );
