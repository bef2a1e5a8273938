/**
 * SIGTERM under keep-alive load, through the path the signal takes (runService's shutdown):
 * /ready turns 503 at once, every request sent is answered (responses carry `Connection: close`,
 * keep-alive connections close), no connection is cut, and the drain ends well inside its
 * 10 s timeout.
 */
import { Agent } from 'node:http';
import { createLogger } from '@ctss/server-kit';
import { fetchOn, keepAliveLoad } from '@ctss/test-support';
import { uniquePrefix } from './support/app.js';
import { mainConfig, removePrefix, startAsMain } from './support/main-service.js';

const prefix = uniquePrefix('drain');
afterAll(() => removePrefix(prefix));

it('drains a keep-alive load with no failed request, /ready 503 at once, well inside the timeout', async () => {
  const config = mainConfig(prefix, { RATE_LIMIT_PER_MINUTE: '1000000' });
  const logger = createLogger({ name: 'drain-test', level: 'silent' });
  const { port, shutdown } = await startAsMain(config, logger, 10_000);
  const base = `http://127.0.0.1:${port}`;

  // A keep-alive connection that answered one request and then sits idle through the shutdown.
  const idle = new Agent({ keepAlive: true, maxSockets: 1 });
  expect((await fetchOn(idle, `${base}/health`)).status).toBe(200);
  const idleSocket = Object.values(idle.freeSockets).flat()[0];
  expect(idleSocket).toBeDefined();
  const idleClosed = new Promise<void>((resolve) => idleSocket!.once('close', () => resolve()));

  const load = keepAliveLoad(`${base}/tokenPrices`, 6);
  await load.warm;
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Right before the signal: the probe's keep-alive connection is then busy or idle for less than
  // the drain's idle grace (1 s), so the drain does not close it under the next /ready (a slow
  // host's warm-up alone can outlast the grace).
  const probe = new Agent({ keepAlive: true, maxSockets: 1 });
  expect((await fetchOn(probe, `${base}/ready`)).status).toBe(200);

  const started = Date.now();
  const stopping = shutdown('SIGTERM');
  const ready = await fetchOn(probe, `${base}/ready`);
  await stopping;
  const drainMs = Date.now() - started;
  const result = await load.stop();
  probe.destroy();
  await idleClosed;
  idle.destroy();

  expect(ready.status).toBe(503);
  expect(ready.connection).toBe('close');
  expect(JSON.parse(ready.body)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(result.failures).toEqual([]);
  expect(result.failed).toBe(0);
  expect(result.ok).toBeGreaterThan(6);
  // Every client's connection ended with a Connection: close response (none by a reset), and
  // its next connection attempt was refused: the port no longer listens.
  expect(result.closing).toBe(6);
  expect(result.refused).toBe(6);
  expect(drainMs).toBeLessThan(6_000);
  await expect(fetch(`${base}/health`)).rejects.toThrow();
});
