/**
 * Probes (docs/api.md "Probes, metrics and docs"; docs/operations.md "Readiness"): `/health` is
 * liveness (the process answers; `status: degraded` while a backend refuses this replica's
 * credentials), `/ready` is readiness and fails only for what makes THIS replica unable to serve
 * while others could: its own credentials refused by PostgreSQL or Redis (a bad Secret in a
 * rollout stops at the first new pod). An unreachable database or Redis is reported but does not
 * decide it: every replica shares that outage, and each answers what it can (stale statistics,
 * 503 problems with Retry-After for the rest) instead of leaving no endpoint at all
 * (docs/decisions.md "D90. Readiness for one replica, not for shared outages"). Draining and
 * start-up are server-kit's and the listener's (no /ready before start-up is done).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import {
  HttpProblem,
  sendJson,
  sendProblem,
  type KvStore,
  type Logger,
  type Metrics,
} from '@ctss/server-kit';
import { Router } from 'express';
import { Gauge } from 'prom-client';
import type { Databases } from './db/connect.js';
import { isCredentialsRefused } from './db/unavailable.js';
import { registerGet } from './openapi-responses.js';

const PROBE_TIMEOUT_MS = 2_000;

/** Resolves `promise`, or rejects after `ms` milliseconds. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the probes use: the read pool, the KV store, and where refused credentials are reported. */
export interface HealthDeps {
  readonly db: Pick<Databases, 'read'>;
  readonly kv: Pick<KvStore, 'ping' | 'kind' | 'redis'>;
  /** Logs refused credentials once at error level when they start. */
  readonly logger?: Logger;
  /** Gets `<prefix>dependency_credentials_refused{dependency}` (1 while refused). */
  readonly metrics?: Metrics;
}

/** A backend's state as the probes report it. */
type Reach = 'ok' | 'unreachable' | 'credentials refused';

const REFUSED: Reach = 'credentials refused';

/** The metric name prefix of `metrics` (e.g. `monitoring_`), read off its HTTP request counter. */
function metricsPrefix(metrics: Metrics): string {
  const suffix = 'http_requests_total';
  const name = metrics.registry
    .getMetricsAsArray()
    .map((m) => m.name)
    .find((n) => n.endsWith(suffix));
  return name ? name.slice(0, -suffix.length) : '';
}

/** `GET /health` and `GET /ready`. */
export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  /** The database's state at the last /ready probe (liveness reads it, never the database). */
  let database: Reach = 'ok';
  const cacheRefused = () => deps.kv.redis?.credentialsRefused === true;
  if (deps.metrics) {
    new Gauge({
      name: `${metricsPrefix(deps.metrics)}dependency_credentials_refused`,
      help: 'Whether PostgreSQL or Redis refuses the credentials this process was configured with (1) or not (0)',
      labelNames: ['dependency'],
      registers: [deps.metrics.registry],
      collect() {
        this.set({ dependency: 'database' }, database === REFUSED ? 1 : 0);
        this.set({ dependency: 'redis' }, cacheRefused() ? 1 : 0);
      },
    });
  }
  const probeDatabase = async (): Promise<Reach> => {
    let next: Reach;
    try {
      await within(deps.db.read.raw('select 1'), PROBE_TIMEOUT_MS);
      next = 'ok';
    } catch (err) {
      next = isCredentialsRefused(err) ? REFUSED : 'unreachable';
    }
    if (next === REFUSED && database !== REFUSED)
      deps.logger?.error(
        { event: 'database_credentials_refused' },
        'PostgreSQL refuses the credentials in DATABASE_URL: fix the password (or role) of this deployment',
      );
    database = next;
    return next;
  };
  const probeCache = (): Promise<Reach> =>
    within(deps.kv.ping(), PROBE_TIMEOUT_MS).then(
      () => 'ok',
      () => (cacheRefused() ? REFUSED : 'unreachable'),
    );
  router.get('/health', (_req, res) => {
    const cache: Reach = cacheRefused() ? REFUSED : 'ok';
    if (database === REFUSED || cache === REFUSED)
      sendJson(res, 200, {
        status: 'degraded',
        ...(database === REFUSED ? { database } : {}),
        ...(cache === REFUSED ? { cache } : {}),
      });
    else sendJson(res, 200, { status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    const [db, cache] = await Promise.all([probeDatabase(), probeCache()]);
    if (db === REFUSED || cache === REFUSED) {
      // Sent, not thrown: the refusal is logged once where it is detected, not per probe.
      sendProblem(
        res,
        new HttpProblem(
          503,
          'SERVICE_UNAVAILABLE',
          `this replica's credentials are refused: database: ${db}; cache: ${cache}`,
        ),
      );
      return;
    }
    sendJson(res, 200, {
      status: 'ready',
      database: db,
      cache: cache === 'ok' ? deps.kv.kind : cache,
    });
  });
  return router;
}

/** Registers `GET /health` and `GET /ready` (not conditional: no ETag, no 304). */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registerGet(
    registry,
    '/health',
    'Liveness',
    z.object({
      status: z.enum(['ok', 'degraded']),
      database: z.literal('credentials refused').optional(),
      cache: z.literal('credentials refused').optional(),
    }),
    undefined,
    false,
  );
  registerGet(
    registry,
    '/ready',
    'Readiness of this replica: 503 SERVICE_UNAVAILABLE only while PostgreSQL or Redis refuses its credentials; an unreachable backend is reported (`unreachable`) but leaves it ready',
    z.object({ status: z.literal('ready'), database: z.string(), cache: z.string() }),
    undefined,
    false,
  );
}
