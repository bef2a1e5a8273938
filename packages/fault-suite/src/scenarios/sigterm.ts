/**
 * Scenario 3: SIGTERM under keep-alive load, both APIs at once. Several keep-alive clients loop
 * (node's http Agent); a client stops after a response carrying `Connection: close`, as a client
 * told to go away does, so what it counts is what a real client sees. Also /ready probes on
 * fresh connections (as the kubelet probes) and on a keep-alive one, one idle keep-alive socket,
 * and (gas quote API) a WebSocket subscriber. Asserted: no failed request, in-flight requests finish, /ready 503 during
 * the drain, idle sockets closed, WebSocket close 1001, exit 0 well inside the drain timeout.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { keepAliveAgent, ok, send, type RequestSpec, type Sample } from '../http.js';
import { runLoop, stopSwitch } from '../load.js';
import type { Child } from '../processes.js';
import { check, figure, fmt, outcomes, summarize } from '../report.js';
import { DRAIN_TIMEOUT_MS, LIMITS, PORTS } from '../settings.js';
import { GAS_REQUESTS, cycle, monitoringReads } from '../workload.js';

const NAME = '3 sigterm';
const CLIENTS = 4;
/**
 * An idle keep-alive socket may get a short grace (a request already on its way still lands)
 * before the drain closes it; it must be closed well before the drain timeout.
 */
const IDLE_CLOSE_LIMIT_MS = 2000;

/** Rejects with `what` when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms).then(() => Promise.reject(new Error(`${what}: nothing within ${ms} ms`))),
  ]);
}

/**
 * Opens a keep-alive socket and sends one request; resolves once the response arrived, with a
 * promise of when the server closed the socket.
 */
async function idleSocket(port: number): Promise<{ closed: Promise<number> }> {
  const socket = net.connect(port, '127.0.0.1');
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  socket.on('error', () => undefined);
  await within(
    new Promise<void>((resolve) => {
      socket.once('data', () => resolve());
      socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    }),
    3000,
    'idle socket response',
  );
  return { closed };
}

/** Opens a WebSocket subscriber; resolves once open, with a promise of its close code. */
async function subscriber(port: number): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/subscribe`);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await within(
    new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    3000,
    'WebSocket open',
  );
  ws.on('error', () => undefined);
  return { closed };
}

async function drain(
  api: Child,
  port: number,
  specs: readonly RequestSpec[],
  websocket: boolean,
): Promise<void> {
  const label = `${NAME} ${api.name}`;
  const sw = stopSwitch();
  const deadline = Date.now() + 30_000;
  const loops = Array.from({ length: CLIENTS }, (_, i) =>
    runLoop({
      next: cycle([...specs.slice(i % specs.length), ...specs.slice(0, i % specs.length)]),
      pauseMs: 2,
      maxRequests: 20_000,
      deadline,
      stopped: sw.stopped,
      stopAfter: (s) => s.connectionClose || s.status === 0,
    }),
  );
  let sigtermAt = Number.POSITIVE_INFINITY;
  // /ready on a busy keep-alive connection too: it sees the drain even if the listener is closed.
  const readyKeepAlive = runLoop({
    next: () => ({ label: 'ready', url: `http://127.0.0.1:${port}/ready` }),
    pauseMs: 5,
    maxRequests: 20_000,
    deadline,
    stopped: sw.stopped,
    stopAfter: (s) => s.connectionClose || s.status === 0,
  });
  const readyProbe = (async () => {
    const seen: Sample[] = [];
    while (!sw.stopped() && Date.now() < deadline) {
      const s = await send(false, { label: 'ready', url: `http://127.0.0.1:${port}/ready` }, 1000);
      if (s.startedAt >= sigtermAt) seen.push(s);
      if (s.status === 0 && s.startedAt >= sigtermAt) break;
      await sleep(20);
    }
    return seen;
  })();
  const ws = websocket ? await subscriber(port) : undefined;
  await sleep(1500);
  // Opened just before SIGTERM, so the server's keep-alive timeout does not close it first.
  const idle = await idleSocket(port);
  // A keep-alive connection that asks /ready 200 ms into the drain (if it is still open then).
  const lateAgent = keepAliveAgent();
  await send(lateAgent, { label: 'health', url: `http://127.0.0.1:${port}/health` });
  sigtermAt = Date.now();
  api.signal('SIGTERM');
  const lateReady = sleep(200).then(() =>
    send(lateAgent, { label: 'ready', url: `http://127.0.0.1:${port}/ready` }, 1000),
  );
  const exitLimit = DRAIN_TIMEOUT_MS + 5000;
  const code = await Promise.race([api.exited, sleep(exitLimit).then(() => 'still running')]);
  const exitMs = Date.now() - sigtermAt;
  if (code === 'still running') {
    api.signal('SIGKILL');
    await api.exited;
  }
  sw.stop();
  const samples = (await Promise.all(loops)).flat();
  const ready = await readyProbe;
  // Answered after SIGTERM: a request sent just before it may be answered (with
  // Connection: close) once the drain has begun.
  const readyKept = [
    ...(await readyKeepAlive).filter((s) => s.endedAt >= sigtermAt),
    await lateReady,
  ];
  lateAgent.destroy();
  const idleMs = (await idle.closed) - sigtermAt;

  const failed = samples.filter((s) => !ok(s));
  summarize(label, `${CLIENTS} keep-alive clients`, samples, ok);
  check(label, '0 failed requests', `${failed.length} (${outcomes(failed)})`, failed.length === 0);
  const inFlight = samples.filter((s) => s.startedAt < sigtermAt && s.endedAt >= sigtermAt);
  check(
    label,
    'requests in flight at SIGTERM finish 2xx',
    `${inFlight.filter(ok).length} of ${inFlight.length}`,
    inFlight.every(ok),
  );
  const closes = samples.filter((s) => s.endedAt >= sigtermAt && s.connectionClose).length;
  figure(label, 'responses after SIGTERM with Connection: close', closes);
  check(
    label,
    'each client was told Connection: close',
    `${closes} of ${CLIENTS}`,
    closes >= CLIENTS,
  );
  figure(label, '/ready after SIGTERM, new connections', outcomes(ready));
  figure(label, '/ready after SIGTERM, keep-alive', outcomes(readyKept));
  const ready503 = [...ready, ...readyKept].filter((s) => s.status === 503).length;
  check(label, '/ready answered 503 during the drain', ready503, ready503 > 0);
  figure(label, 'idle keep-alive socket closed after', `${fmt(idleMs)} ms`);
  check(
    label,
    `idle keep-alive socket closed within ${IDLE_CLOSE_LIMIT_MS} ms`,
    `${fmt(idleMs)} ms`,
    idleMs <= IDLE_CLOSE_LIMIT_MS,
  );
  if (ws) {
    const wsCode = await within(ws.closed, 1000, 'WebSocket close').catch(() => 'not closed');
    check(label, 'WebSocket closed with 1001', wsCode, wsCode === 1001);
  }
  figure(
    label,
    'SIGTERM to exit',
    `${exitMs} ms (exit ${code}${code === 'still running' ? `, SIGKILLed after ${exitLimit} ms` : ''})`,
  );
  const limit = DRAIN_TIMEOUT_MS * LIMITS.exitWithinShareOfDrain;
  check(
    label,
    `exit 0 within ${limit} ms`,
    `${exitMs} ms, exit ${code}`,
    code === 0 && exitMs < limit,
  );
}

/** Runs the scenario on both APIs at once; both processes are gone afterwards. */
export async function sigterm(monitoring: Child, gas: Child, username: string): Promise<void> {
  await Promise.all([
    drain(monitoring, PORTS.monitoring, monitoringReads(username), false),
    drain(gas, PORTS.gas, GAS_REQUESTS, true),
  ]);
}
