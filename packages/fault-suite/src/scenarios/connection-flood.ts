/**
 * Scenario 8: connection floods against the monitoring API at its default connection limits
 * (docs/operations.md "Connection limits"). Two flood processes (flood-client.ts; each holds at
 * most `ulimit -n` descriptors) open 20,000 idle connections from 127.0.0.2, one of them then 400
 * slow-body requests from 127.0.0.3 (headers, then one body byte every 5 s), while other clients
 * on 127.0.0.1 keep polling on keep-alive and fresh connections. The server's side is read from
 * its /metrics (admitted open connections, refusals by reason). Asserted: the other clients are
 * served (success ratio) with a p99 over the whole flood within 2x their p99 just before it (or
 * within a small absolute margin of it, LIMITS.floodP99MarginMs); the p99 while the flood opens
 * its connections and while it holds them are printed apart. The server admits at most the
 * per-address cap from each flooding address and refuses the rest, dripping bodies are cut with
 * a 408 at the request timeout (or refused with a 429), nothing of the flood is left open after
 * it, and the service did not restart.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ok, send, type Sample } from '../http.js';
import { runLoop, stopSwitch } from '../load.js';
import type { Child } from '../processes.js';
import { check, checkSamePids, figure, fmt, outcomes, summarize } from '../report.js';
import { MONITORING_URL } from '../services.js';
import { LIMITS, PORTS, REPO_ROOT } from '../settings.js';
import { cycle } from '../workload.js';
import type { FloodReport, GroupReport } from '../flood-client.js';

const NAME = '8 connection flood';
/** Idle connections the flood opens, and slow-body requests. */
const IDLE_SOCKETS = 20_000;
const SLOW_SOCKETS = 400;
/** The body drip of a slow request, ms per byte. */
const DRIP_MS = 5000;
/** The service's defaults (server-kit DEFAULT_CONNECTION_LIMITS), which the suite does not change. */
const PER_ADDRESS_CAP = 256;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Slack over a timeout: Node checks timeouts every second, plus scheduling on a busy host. */
const TIMEOUT_SLACK_MS = 5000;
/** Connections of the other clients (2 keep-alive, 1 fresh, the /metrics poller), with slack. */
const OTHER_CONNECTIONS = 10;
/** Longest a flood process runs: opening (about 10 s) and the request timeout, with slack. */
const FLOOD_DEADLINE_MS = REQUEST_TIMEOUT_MS + 30_000;
/**
 * How often the server's /metrics is read during the flood, ms: often enough to see the admitted
 * connections at their peak (they stay there for the headers timeout), rarely enough that the
 * scrapes (each walks the process's handles and open files) do not weigh on the other clients.
 */
const METRICS_INTERVAL_MS = 2000;
/** How long the other clients are measured before the flood (long enough for a stable p99). */
const BASELINE_MS = 10_000;

/** The other clients' requests: served from the monitoring API's caches (memory and Redis). */
const OTHERS = cycle([
  { label: 'feed', url: `${MONITORING_URL}/transactionsmainnet?limit=10` },
  { label: 'stats', url: `${MONITORING_URL}/stats/mainnet/volumes/daily` },
  { label: 'health', url: `${MONITORING_URL}/health` },
]);

/** Two keep-alive clients and one that opens a new connection per request, until stopped. */
function others(stopped: () => boolean, deadline: number): Promise<Sample[]>[] {
  const loop = () => runLoop({ next: OTHERS, pauseMs: 20, maxRequests: 5000, deadline, stopped });
  const fresh = async () => {
    const out: Sample[] = [];
    while (!stopped() && Date.now() < deadline) {
      out.push({ ...(await send(false, OTHERS())), label: 'fresh' });
      await sleep(20);
    }
    return out;
  };
  return [loop(), loop(), fresh()];
}

/**
 * Runs one flood-client.js process against the monitoring API; resolves with its report. Each
 * process holds at most its `ulimit -n` descriptors, so the idle flood is split over processes.
 */
function flood(idle: number, slow: number): Promise<FloodReport> {
  const script = path.join(REPO_ROOT, 'packages/fault-suite/dist/flood-client.js');
  const child = spawn(
    process.execPath,
    [
      script,
      '--port',
      String(PORTS.monitoring),
      '--idle',
      String(idle),
      '--slow',
      String(slow),
      '--drip-ms',
      String(DRIP_MS),
      '--path',
      '/users/verify',
      '--deadline-ms',
      String(FLOOD_DEADLINE_MS),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`flood client exited ${code}: ${err.slice(0, 500)}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as FloodReport);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** The two groups of several flood processes as one. */
function merge(a: GroupReport, b: GroupReport): GroupReport {
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    const out = { ...x };
    for (const [k, n] of Object.entries(y)) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  return {
    attempted: a.attempted + b.attempted,
    connected: a.connected + b.connected,
    connectErrors: add(a.connectErrors, b.connectErrors),
    firstLines: add(a.firstLines, b.firstLines),
    closedWithin2s: a.closedWithin2s + b.closedWithin2s,
    heldLonger: a.heldLonger + b.heldLonger,
    maxOpenMs: Math.max(a.maxOpenMs, b.maxOpenMs),
    openAtDeadline: a.openAtDeadline + b.openAtDeadline,
    openingMs: Math.max(a.openingMs, b.openingMs),
  };
}

/** The monitoring API's connection metrics (server-kit metrics.ts), from its /metrics. */
async function connectionMetrics(): Promise<{ open: number; refused: Record<string, number> }> {
  const res = await fetch(`${MONITORING_URL}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const open = Number(/^monitoring_http_open_connections (\d+)/m.exec(text)?.[1] ?? Number.NaN);
  const refused: Record<string, number> = {};
  for (const m of text.matchAll(
    /^monitoring_http_connections_refused_total\{reason="(\w+)"\} (\d+)/gm,
  )) {
    refused[m[1]!] = Number(m[2]);
  }
  return { open, refused };
}

/**
 * CPU time `pid` has used (user + system), s, from /proc/<pid>/stat (fields 14 and 15, in clock
 * ticks of 1/100 s on Linux); NaN when unreadable.
 */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const counts = (r: Record<string, number>) =>
  Object.entries(r)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} x${n}`)
    .join(', ') || 'none';

function groupFigure(what: string, g: GroupReport): void {
  figure(
    NAME,
    what,
    `${g.attempted} attempted, ${g.connected} connected in ${fmt(g.openingMs / 1000)} s; answers: ${counts(g.firstLines)}; connect errors: ${counts(g.connectErrors)}; closed within 2 s: ${g.closedWithin2s}, held longer: ${g.heldLonger}, longest open ${fmt(g.maxOpenMs / 1000)} s, open at the end: ${g.openAtDeadline}`,
  );
}

/** Runs the scenario against `monitoring` (the running monitoring API). */
export async function connectionFlood(monitoring: Child): Promise<void> {
  const pids = [monitoring.pid];
  const baselineStop = stopSwitch();
  const baselineLoops = others(baselineStop.stopped, Date.now() + BASELINE_MS);
  await sleep(BASELINE_MS);
  baselineStop.stop();
  const idle = (await Promise.all(baselineLoops)).flat();
  const base = summarize(NAME, 'other clients before the flood', idle, ok);

  const floodStop = stopSwitch();
  const cpuBefore = cpuSeconds(monitoring.pid);
  const started = Date.now();
  const during = others(floodStop.stopped, started + FLOOD_DEADLINE_MS + 5000);
  const refusedBefore = (await connectionMetrics().catch(() => undefined))?.refused ?? {};
  let peakOpen = 0;
  const sampler = (async () => {
    while (!floodStop.stopped()) {
      const m = await connectionMetrics().catch(() => undefined);
      if (m && !Number.isNaN(m.open)) peakOpen = Math.max(peakOpen, m.open);
      await sleep(METRICS_INTERVAL_MS);
    }
  })();
  const reports = await Promise.all([
    flood(IDLE_SOCKETS / 2, SLOW_SOCKETS),
    flood(IDLE_SOCKETS / 2, 0),
  ]).finally(() => floodStop.stop());
  const samples = (await Promise.all(during)).flat();
  await sampler;
  const cpuFlood = cpuSeconds(monitoring.pid) - cpuBefore;
  const after = await connectionMetrics();
  figure(
    NAME,
    'idle connections attempted by each flood process',
    reports.map((r) => `${r.idle.attempted} in ${fmt(r.idle.openingMs / 1000)} s`).join(', '),
  );
  const report = {
    idle: merge(reports[0].idle, reports[1].idle),
    slow: reports[0].slow,
    fileLimit: reports[0].fileLimit,
  };
  const refused = Object.fromEntries(
    Object.entries(after.refused).map(([k, n]) => [k, n - (refusedBefore[k] ?? 0)]),
  );
  const refusedTotal = Object.values(refused).reduce((a, n) => a + n, 0);
  figure(NAME, 'flood processes, file limit of each (ulimit -n)', `2, ${report.fileLimit}`);
  figure(
    NAME,
    'server: CPU time during the flood (user + system, /proc), and per refused connection',
    `${fmt(cpuFlood)} s in ${fmt((Date.now() - started) / 1000)} s, ${fmt((cpuFlood * 1e6) / Math.max(1, refusedTotal))} us per refused connection (the other clients' requests included)`,
  );
  groupFigure(`idle connections from 127.0.0.2`, report.idle);
  groupFigure(`slow bodies from 127.0.0.3 (1 byte / ${DRIP_MS / 1000} s)`, report.slow);
  figure(
    NAME,
    'server: refused connections by reason (http_connections_refused_total)',
    counts(refused),
  );
  figure(
    NAME,
    'server: admitted open connections (http_open_connections)',
    `peak ${peakOpen}, after the flood ${after.open}`,
  );
  const load = summarize(NAME, 'other clients during the flood', samples, ok);
  // The opening phase ends when both flood processes have attempted every connection.
  const openedAt = Math.max(...reports.map((r) => r.openedAt));
  const opening = summarize(
    NAME,
    `  of which while the flood opens (${fmt((openedAt - started) / 1000)} s)`,
    samples.filter((x) => x.startedAt < openedAt),
    ok,
  );
  const held = summarize(
    NAME,
    '  of which while the flood holds its connections',
    samples.filter((x) => x.startedAt >= openedAt),
    ok,
  );
  summarize(
    NAME,
    '  of which keep-alive',
    samples.filter((x) => x.label !== 'fresh'),
    ok,
  );
  summarize(
    NAME,
    '  of which a new connection each',
    samples.filter((x) => x.label === 'fresh'),
    ok,
  );
  figure(NAME, 'other clients during the flood, outcomes', outcomes(samples));

  check(
    NAME,
    `flood opened ${IDLE_SOCKETS} idle connections`,
    `${report.idle.attempted} attempted, ${report.idle.connected} connected`,
    report.idle.attempted === IDLE_SOCKETS && report.idle.connected > PER_ADDRESS_CAP,
  );
  check(
    NAME,
    `other clients: success ratio >= ${LIMITS.minSuccessRatio}`,
    `${fmt(load.ratio * 100)} % of ${load.count}`,
    load.count > 0 && load.ratio >= LIMITS.minSuccessRatio,
  );
  figure(
    NAME,
    'other clients: p99 against before, while opening / while held',
    `${fmt(opening.p99 / base.p99)}x / ${fmt(held.p99 / base.p99)}x`,
  );
  const allowedP99 = Math.max(LIMITS.floodP99Ratio * base.p99, base.p99 + LIMITS.floodP99MarginMs);
  check(
    NAME,
    `other clients: p99 during the flood within ${LIMITS.floodP99Ratio}x of before (or ${LIMITS.floodP99MarginMs} ms over it)`,
    `${fmt(load.p99 / base.p99)}x: ${fmt(load.p99)} ms vs ${fmt(base.p99)} ms before (allowed ${fmt(allowedP99)} ms)`,
    load.p99 <= allowedP99,
  );
  check(
    NAME,
    `server held at most the per-address cap (${PER_ADDRESS_CAP}) per flooding address, plus the other clients`,
    `peak ${peakOpen} admitted`,
    peakOpen > 0 && peakOpen <= 2 * PER_ADDRESS_CAP + OTHER_CONNECTIONS,
  );
  check(
    NAME,
    'server refused the rest over the per-address cap (429 / closed after the grace)',
    counts(refused),
    (refused.address ?? 0) >= IDLE_SOCKETS / 2,
  );
  check(
    NAME,
    `every flood connection closed once the flood ended (headers ${HEADERS_TIMEOUT_MS / 1000} s and request ${REQUEST_TIMEOUT_MS / 1000} s timeouts)`,
    `${after.open} admitted open after the flood`,
    after.open <= OTHER_CONNECTIONS,
  );
  const slow408 = report.slow.firstLines['HTTP/1.1 408 Request Timeout'] ?? 0;
  const slow429 = report.slow.firstLines['HTTP/1.1 429 Too Many Requests'] ?? 0;
  check(
    NAME,
    `slow bodies: cut with 408 at the request timeout (${REQUEST_TIMEOUT_MS / 1000} s) or refused with 429`,
    `408 x${slow408}, 429 x${slow429}, longest open ${fmt(report.slow.maxOpenMs / 1000)} s`,
    report.slow.connected === SLOW_SOCKETS &&
      slow408 + slow429 === SLOW_SOCKETS &&
      slow408 <= PER_ADDRESS_CAP &&
      report.slow.openAtDeadline === 0 &&
      report.slow.maxOpenMs <= REQUEST_TIMEOUT_MS + TIMEOUT_SLACK_MS,
  );
  figure(NAME, 'flood duration', `${fmt((Date.now() - started) / 1000)} s`);
  checkSamePids(NAME, [monitoring], pids);
}
