/**
 * Client addresses cannot be spoofed with the default TRUST_PROXY (docs/operations.md "Client
 * addresses"): a client connecting directly that sends a different `X-Forwarded-For` on every
 * request is still one client for the per-IP rate limit, the per-address WebSocket cap and the
 * per-address connection cap, over real HTTP and WebSocket connections.
 */
import { afterEach, expect, it } from '@jest/globals';
import { buildTestApp, type TestApp } from './support/app.js';
import { connectWs, type TestWsClient } from './support/ws-client.js';

const apps: TestApp[] = [];
const sockets: TestWsClient[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

/** An app at the default TRUST_PROXY with small limits; resolves with its base URL. */
async function start(env: Record<string, string>): Promise<string> {
  const t = buildTestApp({ env });
  apps.push(t);
  expect(t.config.TRUST_PROXY).toBe(false);
  return t.listen();
}

/** A spoofed `X-Forwarded-For`: a different documentation address (RFC 5737) each time. */
const spoofed = (i: number) => ({ 'X-Forwarded-For': `203.0.113.${(i % 250) + 1}` });

/** Sends `count` requests to `url` one after another; resolves with how many were not 429. */
async function allowed(url: string, count: number, spoof: boolean): Promise<number> {
  let passed = 0;
  for (let i = 0; i < count; i++) {
    const res = await fetch(url, { headers: spoof ? spoofed(i) : {} });
    await res.arrayBuffer();
    if (res.status !== 429) passed += 1;
  }
  return passed;
}

it('the per-IP rate limit counts a direct client once, whatever X-Forwarded-For it sends', async () => {
  const env = { RATE_LIMIT_PER_MINUTE: '5' };
  const REQUESTS = 30;
  const withSpoof = await allowed(`${await start(env)}/routes`, REQUESTS, true);
  const without = await allowed(`${await start(env)}/routes`, REQUESTS, false);
  expect(withSpoof).toBeLessThan(REQUESTS);
  expect(withSpoof).toBe(without);
});

it('the per-address WebSocket cap holds against a spoofed X-Forwarded-For', async () => {
  const base = await start({ WS_MAX_CONNECTIONS_PER_IP: '2', RATE_LIMIT_PER_MINUTE: '1000' });
  const url = `${base.replace('http:', 'ws:')}/subscribe`;
  sockets.push(await connectWs(url, spoofed(1)));
  sockets.push(await connectWs(url, spoofed(2)));
  await expect(connectWs(url, spoofed(3))).rejects.toThrow(/429/);
});

it('the per-address connection cap holds against a spoofed X-Forwarded-For', async () => {
  const base = await start({
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1',
    RATE_LIMIT_PER_MINUTE: '1000',
  });
  const url = `${base.replace('http:', 'ws:')}/subscribe`;
  // An open WebSocket holds its connection.
  sockets.push(await connectWs(url, spoofed(1)));
  const res = await fetch(`${base}/routes`, { headers: spoofed(2) });
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(((await res.json()) as { code: string }).code).toBe('RATE_LIMITED');
});
