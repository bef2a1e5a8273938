/**
 * Scenario 2: PostgreSQL killed under load (immediate shutdown), then started again. Feed,
 * statistics and users requests fail fast with a 503 problem body and Retry-After (statistics
 * may be served stale with a `Cache-Status` header saying so, and a first feed page stored before
 * the kill while it is younger than its max-age); the gas quote API is unaffected;
 * every endpoint recovers quickly after the database returns, with the same PIDs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ok, send, type Sample } from '../http.js';
import { runLoop, stopSwitch, timeToRecover } from '../load.js';
import type { Postgres } from '../postgres.js';
import type { Child } from '../processes.js';
import { check, checkSamePids, figure, fmt, outcomes, summarize } from '../report.js';
import { CACHE_TTL_SECONDS, FEED_FIRST_PAGE_CACHE_SECONDS, LIMITS } from '../settings.js';
import { MONITORING_URL } from '../services.js';
import { GAS_REQUESTS, cycle, monitoringReads } from '../workload.js';

const NAME = '2 postgres loss';
/** An RFC 9211 Cache-Status saying the copy is stale (`fwd=stale`, a `detail` naming it, or a negative `ttl`). */
const isStale = (s: Sample) => /stale|ttl=-/i.test(s.cacheStatus ?? '');
const OUTAGE_MS = 5000;

/**
 * 503 DEPENDENCY_UNAVAILABLE problem with Retry-After, or a 200 of a statistics copy, or a 200 of
 * a first feed page asked within its max-age of the kill (a copy stored before the kill:
 * docs/decisions.md "D63. In-process first-page cache").
 */
const expectedDuringOutage = (killedAt: number) => (s: Sample) =>
  (s.status === 503 &&
    s.code === 'DEPENDENCY_UNAVAILABLE' &&
    s.problemBody &&
    s.retryAfter !== undefined) ||
  (s.label === 'stats' && ok(s)) ||
  (s.label === 'feed' && ok(s) && s.startedAt < killedAt + FEED_FIRST_PAGE_CACHE_SECONDS * 1000);

/** Runs the scenario against the running services. */
export async function postgresLoss(
  db: Postgres,
  services: readonly Child[],
  username: string,
): Promise<void> {
  const pids = services.map((c) => c.pid);
  const sw = stopSwitch();
  const deadline = Date.now() + 30_000;
  const reads = monitoringReads(username);
  const loop = (specs: Parameters<typeof cycle>[0]) =>
    runLoop({ next: cycle(specs), pauseMs: 10, maxRequests: 5000, deadline, stopped: sw.stopped });
  const loops = [
    loop(reads),
    loop([...reads].reverse()),
    loop(GAS_REQUESTS),
    loop([...GAS_REQUESTS].reverse()),
  ];
  // Readiness as the kubelet probes it (docs/operations.md "Readiness"): a shared outage leaves
  // the replica ready, so its stale statistics and fast 503s still reach clients.
  const readyProbes = runLoop({
    next: () => ({ label: 'ready', url: `${MONITORING_URL}/ready` }),
    pauseMs: 200,
    maxRequests: 500,
    deadline,
    stopped: sw.stopped,
  });
  await sleep(1500);
  const killStart = Date.now();
  await db.kill();
  const killedAt = Date.now();
  figure(NAME, 'pg_ctl stop -m immediate took', `${killedAt - killStart} ms`);
  await sleep(OUTAGE_MS);
  const startAt = Date.now();
  await db.start();
  const backAt = Date.now();
  figure(NAME, 'pg_ctl start -w took', `${backAt - startAt} ms`);
  const recovery = await Promise.all(
    reads.map((spec) =>
      timeToRecover(
        () => send(false, spec),
        (s) => ok(s) && !isStale(s),
        backAt,
        10_000,
      ),
    ),
  );
  await sleep(1000);
  sw.stop();
  const samples = (await Promise.all(loops)).flat();

  const monitoring = (s: Sample) => ['feed', 'leaderboard', 'stats', 'users'].includes(s.label);
  const during = samples.filter((s) => s.startedAt >= killedAt && s.startedAt < startAt);
  const monitoringDuring = during.filter(monitoring);
  const m = summarize(
    NAME,
    'feed/leaderboard/stats/users during outage',
    monitoringDuring,
    expectedDuringOutage(killedAt),
  );
  figure(NAME, 'their outcomes', outcomes(monitoringDuring));
  const storedPages = monitoringDuring.filter((s) => s.label === 'feed' && ok(s));
  figure(
    NAME,
    'first feed pages 200 during outage (stored copies)',
    `${storedPages.length}, the last asked ${fmt(Math.max(0, ...storedPages.map((s) => s.startedAt - killedAt)))} ms after the kill (max-age ${FEED_FIRST_PAGE_CACHE_SECONDS} s)`,
  );
  const stale = monitoringDuring.filter((s) => s.label === 'stats' && ok(s));
  figure(
    NAME,
    'stats 200 during outage (Cache-Status)',
    `${stale.length}: ${[...new Set(stale.map((s) => s.cacheStatus ?? 'no Cache-Status'))].join(' | ') || '-'}`,
  );
  // Past the cache lifetime, a statistics 200 can only be a stale copy, and must say so.
  const lateStats = stale.filter((s) => s.startedAt >= killedAt + (CACHE_TTL_SECONDS + 1) * 1000);
  const marked = lateStats.filter(isStale);
  check(
    NAME,
    'stats 200 after cache TTL + 1 s carry Cache-Status stale',
    `${marked.length} of ${lateStats.length}`,
    marked.length === lateStats.length,
  );
  check(
    NAME,
    '503 DEPENDENCY_UNAVAILABLE problem + Retry-After (or stats 200, or a first page within its max-age)',
    `${m.good} of ${m.count}`,
    m.count > 0 && m.good === m.count,
  );
  check(
    NAME,
    `fail fast: p99 < ${LIMITS.failFastP99Ms} ms`,
    `${fmt(m.p99)} ms`,
    m.p99 < LIMITS.failFastP99Ms,
  );

  const gas = samples.filter(
    (s) => !monitoring(s) && s.startedAt >= killStart && s.startedAt < backAt,
  );
  const g = summarize(NAME, 'gas quote API during outage', gas, ok);
  check(
    NAME,
    `gas quote API succeeds >= ${LIMITS.minSuccessRatio * 100} %`,
    `${fmt(g.ratio * 100)} % (${outcomes(gas.filter((s) => !ok(s)))})`,
    g.ratio >= LIMITS.minSuccessRatio,
  );

  reads.forEach((spec, i) =>
    figure(NAME, `recovery: first ${spec.label} 200 after start`, `${fmt(recovery[i]!)} ms`),
  );
  const worst = Math.max(...recovery.map((r) => (Number.isNaN(r) ? Infinity : r)));
  check(
    NAME,
    `every read recovers < ${LIMITS.recoveryMs} ms`,
    `${fmt(worst)} ms`,
    worst < LIMITS.recoveryMs,
  );
  const ready = (await readyProbes).filter((s) => s.startedAt >= killedAt && s.startedAt < startAt);
  figure(NAME, 'monitoring /ready during outage', outcomes(ready));
  check(
    NAME,
    'monitoring /ready stays 200 (database: unreachable) during the shared outage',
    outcomes(ready),
    ready.every((s) => s.status === 200) &&
      ready.some((s) => (s.body as { database?: string } | undefined)?.database === 'unreachable'),
  );
  checkSamePids(NAME, services, pids);
}
