/**
 * startProbeServer over real HTTP: `/health` answers the in-process state of each request,
 * `/ready` follows the readiness check (200 when it resolves; 503 DEPENDENCY_UNAVAILABLE with
 * `Retry-After: 5` when it rejects or is slower than its bound), `/metrics` the registry, and any
 * other path a 404 problem.
 */
import type { Server } from 'node:http';
import { afterEach, expect, it } from '@jest/globals';
import pino from 'pino';
import { Counter, Registry } from 'prom-client';
import { startProbeServer } from '../src/index.js';

const logger = pino({ level: 'silent' });

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Starts a probe server on a free port with `ready` as its readiness check; returns its URL. */
async function probeServer(
  ready: () => Promise<unknown>,
  state: { runs: number },
  registry = new Registry(),
): Promise<string> {
  const started = await startProbeServer({
    port: 0,
    logger,
    registry,
    health: () => ({ status: 'ok', runs: state.runs }),
    ready,
    readyDependency: 'database',
    readyTimeoutMs: 200,
  });
  server = started.server;
  return `http://127.0.0.1:${started.port}`;
}

it('/health answers the state at the time of the request', async () => {
  const state = { runs: 0 };
  const url = await probeServer(() => Promise.resolve(), state);
  expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', runs: 0 });
  state.runs = 3;
  const answer = await fetch(`${url}/health`);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ status: 'ok', runs: 3 });
});

it('/ready is 200 while the check resolves, a 503 problem with Retry-After when it rejects', async () => {
  let up = true;
  const url = await probeServer(
    () => (up ? Promise.resolve(1) : Promise.reject(new Error('connection refused'))),
    { runs: 0 },
  );
  const ready = await fetch(`${url}/ready`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready' });
  up = false;
  const down = await fetch(`${url}/ready`);
  expect(down.status).toBe(503);
  expect(down.headers.get('content-type')).toContain('application/problem+json');
  expect(down.headers.get('retry-after')).toBe('5');
  const body = (await down.json()) as { code: string; detail: string };
  expect(body.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(body.detail).toContain('database');
  expect(body.detail).not.toContain('connection refused');
});

it('/ready is a 503, not a hang, when the check never settles', async () => {
  const url = await probeServer(() => new Promise(() => undefined), { runs: 0 });
  const answer = await fetch(`${url}/ready`);
  expect(answer.status).toBe(503);
  expect(((await answer.json()) as { code: string }).code).toBe('DEPENDENCY_UNAVAILABLE');
});

it('/metrics serves the registry; any other path is a 404 problem', async () => {
  const registry = new Registry();
  new Counter({ name: 'probe_test_runs_total', help: 'runs', registers: [registry] }).inc(2);
  const url = await probeServer(() => Promise.resolve(), { runs: 0 }, registry);
  const metrics = await fetch(`${url}/metrics`);
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain('probe_test_runs_total 2');
  const other = await fetch(`${url}/quote`);
  expect(other.status).toBe(404);
  expect(((await other.json()) as { code: string }).code).toBe('NOT_FOUND');
});
