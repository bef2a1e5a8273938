/**
 * SIGTERM under keep-alive load, through the path the signal takes (runService's shutdown, as
 * main.ts wires it): /ready turns 503 at once, every request sent is answered with
 * `Connection: close` at the end, no connection is cut, and the drain ends well inside its timeout.
 */
import { expect, it } from '@jest/globals';
import { Agent } from 'node:http';
import { createEdgeServer, listen, runService } from '@ctss/server-kit';
import { fetchOn, keepAliveLoad } from '@ctss/test-support';
import { startTestApp } from './support/app.js';

it('drains a keep-alive load with no failed request, /ready 503 at once, well inside the timeout', async () => {
  const t = await startTestApp();
  let port = 0;
  let closed = false;
  const { shutdown } = await runService({
    name: 'monitoring-api',
    logger: t.deps.logger,
    drainTimeoutMs: 10_000,
    start: async () => {
      const server = createEdgeServer(t.app, { logger: t.deps.logger });
      port = await listen(server, 0, '127.0.0.1');
      return {
        server,
        close: async () => {
          closed = true;
          await t.close();
        },
      };
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const load = keepAliveLoad(`${base}/stats/mainnet/transactions`, 6);
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

  expect(ready.status).toBe(503);
  expect(ready.connection).toBe('close');
  expect(JSON.parse(ready.body)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(result.failures).toEqual([]);
  expect(result.failed).toBe(0);
  expect(result.ok).toBeGreaterThan(6);
  expect(result.closing).toBe(6);
  expect(result.refused).toBe(6);
  expect(drainMs).toBeLessThan(6_000);
  expect(closed).toBe(true);
});
