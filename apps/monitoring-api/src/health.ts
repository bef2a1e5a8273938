/**
 * Probes (docs/api.md "Probes, metrics and docs"): `/health` is liveness (the process answers)
 * and reports whether each database target serves statements (db/target-health.ts; `degraded`
 * when one does not, still 200: restarting the process does not mend a database),
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

/** What the probes use: the read pool, the targets' statement health and the KV store. */
export interface HealthDeps {
  readonly db: Pick<Databases, 'read' | 'health'>;
  readonly kv: Pick<KvStore, 'ping' | 'kind'>;
}

/** `GET /health` and `GET /ready`. */
export function createHealthRouter(deps: HealthDeps): Router {
  const router = Router();
  router.get('/health', (req, res) => {
    parseQuery(ProbeQuery, req.query);
    const database = deps.db.health?.report();
    if (database === undefined) {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    const degraded = database.some((target) => target.status !== 'ok');
    sendJson(res, 200, { status: degraded ? 'degraded' : 'ok', database });
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
    summary:
      'Liveness (always 200 while the process answers); `degraded` when a database target is failing or unreachable',
    responses: {
      200: jsonResponse(
        'Alive',
        z.object({
          status: z.enum(['ok', 'degraded']),
          database: z
            .array(
              z.object({
                target: z
                  .string()
                  .describe('`primary`, or `replica-<n>` (n: index in DATABASE_READ_URLS)'),
                status: z
                  .enum(['ok', 'failing', 'unreachable'])
                  .describe(
                    '`failing`: 3 or more of its last 20 statements of the last minute failed with server errors while it accepts connections; `unreachable`: connections are being lost',
                  ),
                recent_failures: z
                  .number()
                  .int()
                  .describe('Of its last 20 statements of the last minute, how many failed'),
                last_error_code: z.string().optional().describe('SQLSTATE of the last failure'),
              }),
            )
            .optional(),
        }),
      ),
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
