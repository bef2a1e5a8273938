/**
 * Scenario 1: Redis SIGKILLed under load for longer than PRICE_MAX_AGE_SECONDS, then restarted.
 * Requests that do not need Redis keep succeeding; nonce issue and binding fail fast with a 503
 * problem body and Retry-After; no quote is signed from prices older than the maximum age, and
 * every quote after it is `MISSING_PRICE_DATA`; everything recovers quickly with the same PIDs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { keepAliveAgent, ok, send, type Sample } from '../http.js';
import { quantile, runLoop, stopSwitch, timeToRecover } from '../load.js';
import type { Child } from '../processes.js';
import { killRedis, startRedis } from '../redis.js';
import { check, checkSamePids, figure, fmt, outcomes, summarize } from '../report.js';
import { LIMITS, PRICE_MAX_AGE_SECONDS } from '../settings.js';
import {
  GAS_REQUESTS,
  cycle,
  evmWallet,
  monitoringReads,
  nonceRequest,
  signedBind,
  verifyRequest,
} from '../workload.js';

const NAME = '1 redis loss';
/** Seconds Redis stays down: beyond the price max age, so stale prices must be refused. */
const OUTAGE_S = PRICE_MAX_AGE_SECONDS + 6;
const isQuote = (s: Sample) => s.label.startsWith('quote');
const isFastRefusal = (s: Sample) =>
  s.status === 503 &&
  s.code === 'DEPENDENCY_UNAVAILABLE' &&
  s.problemBody &&
  s.retryAfter !== undefined;

/** Runs the scenario; `redis` is the running server (replaced on restart: the new one is returned). */
export async function redisLoss(
  redis: Child,
  services: readonly Child[],
  username: string,
): Promise<Child> {
  const pids = services.map((c) => c.pid);
  // Bodies signed before the outage, sent during it (their nonces are in Redis).
  const bodies = await Promise.all(Array.from({ length: 10 }, () => signedBind(username)));
  const sw = stopSwitch();
  const deadline = Date.now() + (OUTAGE_S + 15) * 1000;
  const loop = (next: () => ReturnType<ReturnType<typeof cycle>>, pauseMs: number) =>
    runLoop({ next, pauseMs, maxRequests: 5000, deadline, stopped: sw.stopped });
  const reads = monitoringReads(username);
  let outage = false;
  const address = evmWallet().address;
  const loops = [
    loop(cycle(reads), 10),
    loop(cycle([...reads].reverse()), 10),
    loop(cycle(GAS_REQUESTS), 10),
    loop(cycle([...GAS_REQUESTS].reverse()), 10),
    loop(() => nonceRequest(username, address), 25),
  ];
  await sleep(1500);
  const killStart = Date.now();
  await killRedis(redis);
  const killedAt = Date.now();
  outage = true;
  figure(NAME, 'redis-server SIGKILL to exit', `${killedAt - killStart} ms`);
  // Binding only while Redis is down (before, the first body would bind).
  loops.push(
    runLoop({
      next: cycle(bodies.map((b) => verifyRequest(b.body))),
      pauseMs: 25,
      maxRequests: 2000,
      deadline,
      stopped: () => sw.stopped() || !outage,
    }),
  );
  await sleep(OUTAGE_S * 1000);
  // Redis answers a few ms before startRedis returns: a nonce or bind request answered in that
  // gap is served by the new (empty) server, so only those answered before the restart count.
  const restartAt = Date.now();
  const restarted = await startRedis();
  outage = false;
  const backAt = Date.now();
  figure(NAME, 'outage (kill to answering again)', `${backAt - killedAt} ms`);

  const probeAgent = keepAliveAgent();
  const [nonceRecovery, quoteRecovery] = await Promise.all([
    timeToRecover(
      () => send(probeAgent, nonceRequest(username, evmWallet().address)),
      ok,
      backAt,
      10_000,
    ),
    timeToRecover(() => send(false, GAS_REQUESTS[0]!), ok, backAt, 10_000),
  ]);
  probeAgent.destroy();
  await sleep(1000);
  sw.stop();
  const samples = (await Promise.all(loops)).flat();

  const during = samples.filter((s) => s.startedAt >= killedAt && s.startedAt < backAt);
  const before = samples.filter((s) => s.endedAt < killStart);
  figure(NAME, 'before the kill', outcomes(before));

  const monitoringDuring = during.filter((s) =>
    ['feed', 'leaderboard', 'stats', 'users'].includes(s.label),
  );
  const m = summarize(NAME, 'feeds/leaderboard/stats/users during outage', monitoringDuring, ok);
  check(
    NAME,
    `monitoring reads succeed >= ${LIMITS.minSuccessRatio * 100} %`,
    `${fmt(m.ratio * 100)} % (${outcomes(monitoringDuring.filter((s) => !ok(s)))})`,
    m.ratio >= LIMITS.minSuccessRatio,
  );

  // Prices are at most about 2 s old at the kill (1 s feeder interval, publish times in whole
  // seconds): they are surely fresh for max age - 4 s, and surely stale from max age + 2 s.
  const freshUntil = killedAt + (PRICE_MAX_AGE_SECONDS - 4) * 1000;
  const staleFrom = killedAt + (PRICE_MAX_AGE_SECONDS + 2) * 1000;
  for (const [what, pick] of [
    ['quotes', isQuote],
    ['/tokenPrices', (s: Sample) => s.label === 'tokenPrices'],
  ] as const) {
    const fresh = during.filter((s) => pick(s) && s.startedAt <= freshUntil);
    const f = summarize(NAME, `${what} in the first ${PRICE_MAX_AGE_SECONDS - 4} s`, fresh, ok);
    check(
      NAME,
      `${what} within max age succeed >= ${LIMITS.minSuccessRatio * 100} %`,
      `${fmt(f.ratio * 100)} % (${outcomes(fresh.filter((s) => !ok(s)))})`,
      f.ratio >= LIMITS.minSuccessRatio,
    );
    // Answered before the restart began: from then on the feeder may store fresh prices again.
    const stale = during.filter(
      (s) => pick(s) && s.startedAt >= staleFrom && s.endedAt < restartAt,
    );
    const missing = stale.filter(
      (s) => s.status === 500 && s.code === 'MISSING_PRICE_DATA' && s.problemBody,
    );
    figure(NAME, `${what} from max age + 2 s to restart`, outcomes(stale));
    check(
      NAME,
      `every ${what} answer after max age + 2 s is 500 MISSING_PRICE_DATA`,
      `${missing.length} of ${stale.length}`,
      stale.length > 0 && missing.length === stale.length,
    );
  }
  const lastSigned = Math.max(
    // Answered before the restart began, as above.
    ...during.filter((s) => isQuote(s) && ok(s) && s.endedAt < restartAt).map((s) => s.endedAt),
    killedAt,
  );
  const signedAfter = (lastSigned - killedAt) / 1000;
  figure(
    NAME,
    'last signed quote after the kill',
    `${fmt(signedAfter)} s (max age ${PRICE_MAX_AGE_SECONDS} s)`,
  );
  check(
    NAME,
    'no quote signed later than max age after the last price write',
    `${fmt(signedAfter)} s`,
    signedAfter <= PRICE_MAX_AGE_SECONDS + 0.5,
  );

  const needRedis = during.filter(
    (s) => (s.label === 'nonce' || s.label === 'bind') && s.endedAt < restartAt,
  );
  const r = summarize(NAME, 'nonce issue + binding during outage', needRedis, isFastRefusal);
  check(
    NAME,
    'nonce/bind answer 503 DEPENDENCY_UNAVAILABLE problem + Retry-After',
    `${r.good} of ${r.count} (${outcomes(needRedis)})`,
    r.count > 0 && r.good === r.count,
  );
  check(
    NAME,
    `nonce/bind p99 < ${LIMITS.failFastP99Ms} ms`,
    `${fmt(
      quantile(
        needRedis.map((s) => s.latencyMs),
        0.99,
      ),
    )} ms`,
    r.p99 < LIMITS.failFastP99Ms,
  );

  figure(NAME, 'recovery: first nonce 200 after restart', `${fmt(nonceRecovery)} ms`);
  figure(NAME, 'recovery: first signed quote after restart', `${fmt(quoteRecovery)} ms`);
  check(
    NAME,
    `nonce issue recovers < ${LIMITS.recoveryMs} ms`,
    `${fmt(nonceRecovery)} ms`,
    nonceRecovery < LIMITS.recoveryMs,
  );
  check(
    NAME,
    `quotes recover < ${LIMITS.recoveryMs} ms`,
    `${fmt(quoteRecovery)} ms`,
    quoteRecovery < LIMITS.recoveryMs,
  );
  checkSamePids(NAME, services, pids);
  return restarted;
}
