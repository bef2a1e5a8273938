/**
 * Scenario 7, a wrong Redis password (docs/operations.md "Readiness"): a monitoring API of the
 * scenario's own whose REDIS_URL carries a wrong password, against the suite's Redis and
 * PostgreSQL. A configuration error of this replica, not a shared outage: asserted `/ready` 503
 * (the rollout stops at this pod while the others serve), `/health` 200 `degraded`, one
 * error-level JSON log line, the metric `monitoring_dependency_credentials_refused{dependency="redis"}`
 * at 1, and reads still served from PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from '../http.js';
import { spawnNode, waitUntil } from '../processes.js';
import { check, figure } from '../report.js';
import { PORTS } from '../settings.js';

const NAME = '7 wrong redis password';
/** Port of this scenario's monitoring API (in the suite's API range). */
const PORT = 3212;
const BASE = `http://127.0.0.1:${PORT}`;

/** Runs the scenario with the suite's database at `databaseUrl`. */
export async function wrongRedisPassword(databaseUrl: string, embedded: boolean): Promise<void> {
  const child = spawnNode(
    'wrong-redis-password-monitoring-api',
    'apps/monitoring-api/dist/bin/main.js',
    {
      ...(embedded ? { DATABASE_POOL_MAX: '2', DATABASE_PIPELINE_LANES: '0' } : {}),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      REDIS_URL: `redis://:not-the-password@127.0.0.1:${PORTS.redis}`,
      RATE_LIMIT_PER_MINUTE: '1000000',
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: 'faults:credentials:',
    },
  );
  try {
    await waitUntil(
      'the monitoring API with a wrong Redis password to listen',
      async () =>
        (await send(false, { label: 'health', url: `${BASE}/health` }, 1000)).status === 200,
      60_000,
      child,
    );
    await sleep(500);
    const [ready, health, metrics, feed] = await Promise.all([
      send(false, { label: 'ready', url: `${BASE}/ready` }),
      send(false, { label: 'health', url: `${BASE}/health` }),
      fetch(`${BASE}/metrics`).then((r) => r.text()),
      send(false, { label: 'feed', url: `${BASE}/transactionsmainnet?limit=10` }),
    ]);
    figure(NAME, '/ready', `${ready.status} ${ready.code ?? ''}`);
    figure(NAME, '/health', JSON.stringify(health.body));
    check(
      NAME,
      '/ready is 503 SERVICE_UNAVAILABLE',
      `${ready.status} ${ready.code ?? ''}`,
      ready.status === 503 && ready.code === 'SERVICE_UNAVAILABLE',
    );
    const body = health.body as { status?: string; credentials_refused?: string[] } | undefined;
    check(
      NAME,
      '/health is 200 degraded, credentials_refused: [redis]',
      `${health.status} ${JSON.stringify(body)}`,
      health.status === 200 &&
        body?.status === 'degraded' &&
        body.credentials_refused?.includes('redis') === true,
    );
    const metric = /monitoring_dependency_credentials_refused\{dependency="redis"\} (\d)/.exec(
      metrics,
    )?.[1];
    check(
      NAME,
      'metric dependency_credentials_refused{dependency="redis"} is 1',
      metric ?? 'absent',
      metric === '1',
    );
    check(
      NAME,
      'reads are still served (from PostgreSQL)',
      String(feed.status),
      feed.status === 200,
    );
    const lines = readFileSync(child.logFile, 'utf8').split('\n').filter(Boolean);
    const errors = lines.filter((l) => l.includes('redis_credentials_refused'));
    const allJson = lines.every((l) => {
      try {
        JSON.parse(l);
        return true;
      } catch {
        return false;
      }
    });
    check(
      NAME,
      'one error-level JSON log line names the refused credentials',
      `${errors.length} line(s), level ${errors[0] ? String((JSON.parse(errors[0]) as { level?: unknown }).level) : 'none'}`,
      errors.length === 1 && (JSON.parse(errors[0]!) as { level?: unknown }).level === 50,
    );
    check(NAME, 'every log line is JSON', `${lines.length} lines`, allJson);
  } finally {
    await child.stop(5000);
  }
}
