/**
 * Probes (docs/api.md "Probes, metrics and docs"): `/health` is liveness (the process answers),
 * `/ready` is readiness: the read database answers within two seconds. The KV store is reported
 * but does not decide it (docs/operations.md "Redis lost"): everything but wallet binding works
 * without Redis, and every replica shares a Redis outage, so failing readiness would only turn a
 * degraded service into none.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import { HttpProblem, parseQuery, sendJson, type KvStore } from '@ctss/server-kit';
import { Router } from 'express';
import type { Databases } from './db/connect.js';
import { jsonResponse, problemResponse } from './openapi-responses.js';

const PROBE_TIMEOUT_MS = 2_000;

/** The probes take no query parameters: any is a 400 INVALID_QUERY, as everywhere in this API. */
const ProbeQuery = z.strictObject({});

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
  router.get('/health', (req, res) => {
    parseQuery(ProbeQuery, req.query);
    sendJson(res, 200, { status: 'ok' });
  });
  router.get('/ready', async (req, res) => {
    parseQuery(ProbeQuery, req.query);
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

/** The 400 of a probe given a query parameter. */
const probeQueryProblem = problemResponse('INVALID_QUERY: the probes take no query parameters');

/** Registers `GET /health` and `GET /ready` (no ETag, no 304, not rate limited). */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness: the process answers (no backend is touched)',
    responses: {
      200: jsonResponse('Alive', z.object({ status: z.literal('ok') })),
      400: probeQueryProblem,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    operationId: 'getReady',
    summary: 'Readiness: the read database answers within 2 s; the cache is reported',
    responses: {
      200: jsonResponse(
        'Ready',
        z.object({
          status: z.literal('ready'),
          database: z.literal('ok'),
          cache: z.enum(['redis', 'memory', 'unreachable']),
        }),
      ),
      400: probeQueryProblem,
      503: problemResponse(
        'SERVICE_UNAVAILABLE: the read database does not answer within 2 s (detail e.g. `database: unreachable; cache: ok`), or the process is shutting down',
      ),
    },
  });
}
