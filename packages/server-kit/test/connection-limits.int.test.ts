/**
 * The connection limits of createEdgeServer over real sockets (connection-limits.ts,
 * docs/operations.md "Connection limits"): the per-address and per-process soft caps answer with
 * 429 / 503 problems and `Retry-After`, a refused connection that sends nothing is closed within
 * a second, refusals beyond the ones waiting for their answer are closed at accept, the hard cap closes connections at accept, headers and request timeouts end idle and
 * dripping connections with a 408 problem, keep-alive connections close after their request
 * budget, and a spoofed `X-Forwarded-For` on a direct connection changes nothing unless the peer
 * is a trusted proxy.
 */
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import pino from 'pino';
import {
  DEFAULT_CONNECTION_LIMITS,
  REFUSED_GRACE_MS,
  createEdgeServer,
  listen,
  type ConnectionLimits,
  type RefusalReason,
} from '../src/index.js';

const logger = pino({ level: 'silent' });

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Starts an edge server answering `ok` with `limits` over the defaults; returns its port. */
async function start(
  limits: Partial<ConnectionLimits>,
  onRefused?: (reason: RefusalReason) => void,
): Promise<number> {
  server = createEdgeServer(
    (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    { logger, limits: { ...DEFAULT_CONNECTION_LIMITS, ...limits }, onRefused },
  );
  return listen(server, 0, '127.0.0.1');
}

/** An open (idle) connection from `localAddress`, resolved once connected. */
function openIdle(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** What a connection from `localAddress` receives for `bytes` until it closes (or 5 s), and when. */
function exchange(
  port: number,
  bytes: string,
  localAddress = '127.0.0.1',
): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    let text = '';
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(bytes));
    sockets.push(socket);
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    setTimeout(() => socket.destroy(), 5000).unref();
  });
}

const GET = (headers = '') => `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`;

it('over the per-address cap a connection gets a 429 problem; another address is still served', async () => {
  const reasons: RefusalReason[] = [];
  const port = await start({ maxConnectionsPerAddress: 2 }, (r) => reasons.push(r));
  await openIdle(port);
  await openIdle(port);
  const refused = await exchange(port, GET());
  expect(refused.text).toMatch(/^HTTP\/1\.1 429 /);
  expect(refused.text).toMatch(/\r\nRetry-After: 1\r\n/i);
  expect(refused.text).toMatch(/\r\nConnection: close\r\n/i);
  expect(refused.text).toContain('"code":"RATE_LIMITED"');
  expect(refused.text).toContain('application/problem+json');
  expect(reasons).toEqual(['address']);
  const other = await exchange(port, GET(), '127.0.0.2');
  expect(other.text).toMatch(/^HTTP\/1\.1 200 /);
});

it('a spoofed X-Forwarded-For on a direct connection does not escape the per-address cap', async () => {
  const port = await start({ maxConnectionsPerAddress: 1 });
  await openIdle(port);
  const spoofed = await exchange(port, GET('X-Forwarded-For: 198.51.100.23\r\n'));
  expect(spoofed.text).toMatch(/^HTTP\/1\.1 429 /);
});

it('a peer trusted as a proxy (the ingress) counts only toward the process cap', async () => {
  const port = await start({ maxConnectionsPerAddress: 1, trustProxy: '127.0.0.1/32' });
  await openIdle(port);
  const viaProxy = await exchange(port, GET('X-Forwarded-For: 198.51.100.23\r\n'));
  expect(viaProxy.text).toMatch(/^HTTP\/1\.1 200 /);
});

it('over the process cap a connection gets a 503 problem', async () => {
  const reasons: RefusalReason[] = [];
  const port = await start({ maxConnections: 2 }, (r) => reasons.push(r));
  await openIdle(port, '127.0.0.3');
  await openIdle(port, '127.0.0.4');
  const refused = await exchange(port, GET(), '127.0.0.5');
  expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
  expect(refused.text).toContain('"code":"SERVICE_UNAVAILABLE"');
  expect(refused.text).toMatch(/\r\nRetry-After: 1\r\n/i);
  expect(reasons).toEqual(['process']);
});

it('a refused connection that sends nothing is closed after the grace', async () => {
  const port = await start({ maxConnectionsPerAddress: 1 });
  await openIdle(port);
  const silent = await exchange(port, '');
  expect(silent.text).toBe('');
  expect(silent.closedAfterMs).toBeGreaterThanOrEqual(REFUSED_GRACE_MS - 50);
  expect(silent.closedAfterMs).toBeLessThan(REFUSED_GRACE_MS + 1000);
});

it('beyond as many refusals of an address waiting for their answer as the cap, a refused connection is closed at accept', async () => {
  const reasons: RefusalReason[] = [];
  const port = await start({ maxConnectionsPerAddress: 1 }, (r) => reasons.push(r));
  await openIdle(port);
  // Refused and answered: it holds the address's one place among the refusals for the grace.
  await openIdle(port);
  const closed = await exchange(port, GET());
  expect(closed.text).toBe('');
  expect(reasons).toEqual(['address', 'address']);
  // Another address has its own places.
  await openIdle(port, '127.0.0.2');
  const answered = await exchange(port, GET(), '127.0.0.2');
  expect(answered.text).toMatch(/^HTTP\/1\.1 429 /);
});

it('at the hard cap a new connection is closed at accept, without an answer', async () => {
  const reasons: RefusalReason[] = [];
  const port = await start({ hardMaxConnections: 2 }, (r) => reasons.push(r));
  await openIdle(port, '127.0.0.3');
  await openIdle(port, '127.0.0.4');
  const dropped = await exchange(port, GET(), '127.0.0.5');
  expect(dropped.text).toBe('');
  expect(dropped.closedAfterMs).toBeLessThan(1000);
  expect(reasons).toEqual(['hard']);
});

it('a connection that never sends its headers is closed with a 408 problem after the headers timeout', async () => {
  const port = await start({ headersTimeoutSeconds: 1, requestTimeoutSeconds: 5 });
  const idle = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n');
  expect(idle.text).toMatch(/^HTTP\/1\.1 408 /);
  expect(idle.text).toContain('application/problem+json');
  // The check runs every second (TIMEOUT_CHECK_INTERVAL_MS).
  expect(idle.closedAfterMs).toBeGreaterThanOrEqual(950);
  expect(idle.closedAfterMs).toBeLessThan(2500);
});

it('a body dripped byte by byte is cut with a 408 problem at the request timeout', async () => {
  const port = await start({ headersTimeoutSeconds: 1, requestTimeoutSeconds: 2 });
  const result = await new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    let text = '';
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    });
    sockets.push(socket);
    const drip = setInterval(() => socket.write('a'), 200);
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
  });
  expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  expect(result.closedAfterMs).toBeGreaterThanOrEqual(1950);
  expect(result.closedAfterMs).toBeLessThan(3500);
});

it('a keep-alive connection is closed after its request budget', async () => {
  const port = await start({ maxRequestsPerSocket: 2 });
  const twice = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(2);
  const { text } = await exchange(port, twice);
  const heads = text.match(/HTTP\/1\.1 [^]*?\r\n\r\n/g) ?? [];
  expect(heads).toHaveLength(2);
  expect(heads[0]).toMatch(/\r\nConnection: keep-alive/i);
  expect(heads[1]).toMatch(/\r\nConnection: close/i);
});

it('applies the documented defaults to the server', async () => {
  await start({});
  expect(server?.headersTimeout).toBe(10_000);
  expect(server?.requestTimeout).toBe(30_000);
  expect(server?.keepAliveTimeout).toBe(65_000);
  expect(server?.maxRequestsPerSocket).toBe(1000);
  expect(server?.maxConnections).toBe(8192);
});
