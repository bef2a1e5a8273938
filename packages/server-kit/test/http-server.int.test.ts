/**
 * createEdgeServer's guards over real sockets: a listener that throws (request or upgrade) is
 * answered with a 500 problem and logged, never an uncaught exception, and the server keeps
 * serving; a malformed request is a 400 problem; the drain answers the readiness path with 503.
 */
import { connect } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, expect, it } from '@jest/globals';
import pino from 'pino';
import { createEdgeServer, drainHttpServer, listen, type Logger } from '../src/index.js';

/** A logger that keeps its records, to assert what was logged. */
function recordingLogger(): { logger: Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => records.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, records };
}

/** Writes `bytes` and collects everything until the server closes (or 3 s). */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    setTimeout(() => socket.destroy(), 3000).unref();
  });
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

it('a throwing request listener gets a 500 problem and an error log; the server keeps serving', async () => {
  const { logger, records } = recordingLogger();
  server = createEdgeServer(
    (req, res) => {
      if (req.url === '/boom') throw new Error('handler bug');
      res.end('fine');
    },
    { logger },
  );
  const port = await listen(server, 0, '127.0.0.1');
  const answer = await exchange(port, 'GET /boom HTTP/1.1\r\nHost: x\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 500 /);
  expect(answer).toContain('"code":"INTERNAL"');
  expect(answer).not.toContain('handler bug');
  expect(records.some((r) => r.level === 50 && r.event === 'request')).toBe(true);
  expect(await (await fetch(`http://127.0.0.1:${port}/ok`)).text()).toBe('fine');
});

it('a throwing upgrade listener gets a 500 problem on the socket', async () => {
  const { logger, records } = recordingLogger();
  server = createEdgeServer((_req, res) => res.end('fine'), { logger, upgradePaths: ['/ws'] });
  server.on('upgrade', () => {
    throw new Error('upgrade bug');
  });
  const port = await listen(server, 0, '127.0.0.1');
  const answer = await exchange(
    port,
    'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  );
  expect(answer).toMatch(/^HTTP\/1\.1 500 /);
  expect(answer).toContain('application/problem+json');
  expect(records.some((r) => r.level === 50 && r.event === 'upgrade')).toBe(true);
  expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
});

it('a parser error is a 400 BAD_REQUEST problem with Connection: close', async () => {
  const { logger } = recordingLogger();
  server = createEdgeServer((_req, res) => res.end('fine'), { logger });
  const port = await listen(server, 0, '127.0.0.1');
  const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad\0Header: 1\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(answer).toContain('Connection: close');
  expect(answer).toContain('"code":"BAD_REQUEST"');
});

it('a drain answers /ready 503 on an open connection and closes it after the response', async () => {
  const { logger } = recordingLogger();
  server = createEdgeServer((_req, res) => res.end('fine'), { logger });
  const port = await listen(server, 0, '127.0.0.1');
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const drained = drainHttpServer(server, { timeoutMs: 10_000 });
  socket.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\n');
  await closed;
  const result = await drained;
  expect(text).toMatch(/^HTTP\/1\.1 503 /);
  expect(text).toContain('Connection: close');
  expect(text).toContain('"code":"SERVICE_UNAVAILABLE"');
  expect(result.forced).toBe(0);
  server = undefined;
});
