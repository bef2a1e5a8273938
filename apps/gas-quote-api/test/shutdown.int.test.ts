/**
 * Graceful shutdown through the same path SIGTERM takes (server-kit runService's shutdown):
 * an in-flight request completes, WebSocket clients are closed with 1001, the port stops
 * accepting, and the store is closed.
 */
import { connect } from 'node:net';
import { createLogger } from '@ctss/server-kit';
import { CLOSE_GOING_AWAY } from '../src/feed/hub.js';
import { uniquePrefix } from './support/app.js';
import { mainConfig, removePrefix, startAsMain } from './support/main-service.js';
import { connectWs } from './support/ws-client.js';

const prefix = uniquePrefix('shutdown');
afterAll(() => removePrefix(prefix));

it('drains HTTP, closes WebSockets with 1001 and stops listening', async () => {
  const config = mainConfig(prefix);
  const logger = createLogger({ name: 'shutdown-test', level: 'silent' });
  const { port, shutdown } = await startAsMain(config, logger);
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/health`)).status).toBe(200);
  const client = await connectWs(`ws://127.0.0.1:${port}/subscribe`);

  // A request whose headers are still arriving when shutdown starts: it must still be answered.
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const response = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
  });
  socket.write('GET /tokenPrices HTTP/1.1\r\nHost: localhost\r\n');

  const stopping = shutdown('test');
  socket.write('Connection: close\r\n\r\n');
  await expect(response).resolves.toMatch(/^HTTP\/1\.1 200 OK/);
  await expect(client.closed).resolves.toBe(CLOSE_GOING_AWAY);
  await stopping;
  await expect(fetch(`${base}/health`)).rejects.toThrow();
});
