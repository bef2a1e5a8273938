/**
 * Probes (docs/api.md "Probes, metrics and docs"): `/health` is liveness (the process answers),
 * `/ready` is readiness: the read database answers within two seconds. The KV store is reported
 * but does not decide it (docs/operations.md "Redis lost"): everything but wallet binding works
 * without Redis, and every replica shares a Redis outage, so failing readiness would only turn a
 * degraded service into none.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import { HttpProblem, sendJson, type KvStore } from '@ctss/server-kit';
import { Router } from 'express';
import type { Databases } from './db/connect.js';
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

/** What the probes use: the read pool and the KV store. */
export interface HealthDeps {
  readonly db: Pick<Databases, 'read'>;
  readonly kv: Pick<KvStore, 'ping' | 'kind'>;
}

/** `GET /health` and `GET /ready`. */
export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    const [database, cache] = await Promise.all([
      within(deps.db.read.raw('select 1'), PROBE_TIMEOUT_MS).then(
        () => 'ok',
        () => 'unreachable',
      ),
      within(deps.kv.ping(), PROBE_TIMEOUT_MS).then(
        () => 'ok',
        () => 'unreachable',
      ),
    ]);
    if (database !== 'ok') {
      throw new HttpProblem(503, 'SERVICE_UNAVAILABLE', `database: ${database}; cache: ${cache}`);
    }
    sendJson(res, 200, {
      status: 'ready',
      database,
      cache: cache === 'ok' ? deps.kv.kind : 'unreachable',
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
    z.object({ status: z.literal('ok') }),
    undefined,
    false,
  );
  registerGet(
    registry,
    '/ready',
    'Readiness: database and cache reachable (503 SERVICE_UNAVAILABLE otherwise)',
    z.object({ status: z.literal('ready'), database: z.string(), cache: z.string() }),
    undefined,
    false,
  );
}
