/**
 * Probes (docs/api.md "Probes, metrics and docs"; docs/operations.md "Readiness"): `/health` is
 * liveness (the process answers) and reports what degrades it without a restart mending it: each
 * database target's statement health (db/target-health.ts) and credentials a backend refuses.
 * `/ready` is readiness and fails only for what makes THIS replica unable to serve while others
 * could: its own credentials refused by PostgreSQL or Redis (a bad Secret in a rollout stops at
 * the first new pod). An unreachable database or Redis is reported but does not decide it: every
 * replica shares that outage, and each answers what it can (stale statistics, 503 problems with
 * Retry-After for the rest) instead of leaving no endpoint at all (docs/decisions.md "D88.
 * Readiness for one replica, not for shared outages"). Draining and start-up are server-kit's and
 * the listener's (no /ready before start-up is done).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import {
  HttpProblem,
  parseQuery,
  sendJson,
  sendProblem,
  type KvStore,
  type Logger,
  type Metrics,
  withTimeout,
} from '@ctss/server-kit';
import type { Express } from 'express';
import { Gauge } from 'prom-client';
import type { Databases } from './db/connect.js';
import { isCredentialsRefused } from './db/unavailable.js';
import { jsonResponse, problemResponse } from './openapi-responses.js';
import type { RunningLiveFeed } from './transactions/live-feed.js';

const PROBE_TIMEOUT_MS = 2_000;

/** The probes take no query parameters: any is a 400 INVALID_QUERY, as everywhere in this API. */
const ProbeQuery = z.strictObject({});

/**
 * What the probes use (the part of `AppDeps` they read): the read pool, the targets' statement
 * health, the KV store, the live feed, and where refused credentials are reported.
 */
export interface HealthDeps {
  readonly db: Pick<Databases, 'read' | 'health'>;
  readonly kv: Pick<KvStore, 'ping' | 'kind' | 'redis'>;
  /** Logs refused credentials once at error level when they start. */
  readonly logger?: Logger;
  /** Gets `<prefix>dependency_credentials_refused{dependency}` (1 while refused). */
  readonly metrics?: Metrics;
  /** The live feed, whose state `/health` reports (transactions/live-feed.ts); absent = none. */
  readonly live?: Pick<RunningLiveFeed, 'health'> | undefined;
}

/** A backend's state as the probes report it. */
type Reach = 'ok' | 'unreachable' | 'credentials refused';

const REFUSED: Reach = 'credentials refused';

/** Adds `GET /health` and `GET /ready` to `app`; `deps` is the part of `AppDeps` they use. */
export function addHealthRoutes(app: Express, deps: HealthDeps): void {
  /** The database's state at the last /ready probe (liveness reads it, never the database). */
  let database: Reach = 'ok';
  const cacheRefused = () => deps.kv.redis?.credentialsRefused === true;
  if (deps.metrics) {
    new Gauge({
      name: `${deps.metrics.prefix}dependency_credentials_refused`,
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
      await withTimeout(deps.db.read.execute('select 1'), PROBE_TIMEOUT_MS);
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
    withTimeout(deps.kv.ping(), PROBE_TIMEOUT_MS).then(
      () => 'ok',
      () => (cacheRefused() ? REFUSED : 'unreachable'),
    );
  app.get('/health', (req, res) => {
    parseQuery(ProbeQuery, req.query);
    const refused = [
      ...(database === REFUSED ? ['database'] : []),
      ...(cacheRefused() ? ['redis'] : []),
    ];
    const targets = deps.db.health?.report();
    const stream = deps.live?.health();
    const degraded =
      refused.length > 0 ||
      (targets ?? []).some((t) => t.status !== 'ok') ||
      (stream !== undefined &&
        (!['listening', 'standby'].includes(stream.listener) ||
          stream.channel === 'silent' ||
          stream.channel === 'unavailable'));
    sendJson(res, 200, {
      status: degraded ? 'degraded' : 'ok',
      ...(targets === undefined ? {} : { database: targets }),
      ...(stream === undefined ? {} : { stream }),
      ...(refused.length > 0 ? { credentials_refused: refused } : {}),
    });
  });
  app.get('/ready', async (req, res) => {
    parseQuery(ProbeQuery, req.query);
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
      "Liveness (always 200 while the process answers); `degraded` when a database target is failing or unreachable, or a backend refuses this replica's credentials",
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
          credentials_refused: z
            .array(z.enum(['database', 'redis']))
            .optional()
            .describe('The backends that refuse the credentials this replica was configured with'),
          stream: z
            .object({
              listener: z
                .enum(['connecting', 'listening', 'standby', 'reconnecting', 'stopped'])
                .describe(
                  'The connection of the live feed to the primary: `listening` (LISTEN), `standby` (connected without LISTEN: a follower of the Redis fan-out); `degraded` otherwise: the streams stay open and catch up when it is back',
                ),
              role: z
                .enum(['leader', 'follower', 'direct'])
                .describe(
                  'In the Redis fan-out: `leader` (the one replica that LISTENs and publishes), `follower` (receives through Redis), `direct` (LISTENs itself: no REDIS_URL, or Redis does not answer)',
                ),
              channel: z
                .enum(['none', 'subscribing', 'subscribed', 'silent', 'unavailable'])
                .describe(
                  'The Redis channel of the fan-out: `none` without REDIS_URL; `silent` (no message for two lease lengths) and `unavailable` (Redis does not answer) make the replica `degraded`',
                ),
              clients: z.number().int().describe('Open live-feed streams of this replica'),
              dropped: z
                .number()
                .int()
                .describe('Streams dropped since start for not reading (buffer limit)'),
              last_event_id: z.string().describe('The newest change-log position read, decimal'),
            })
            .optional()
            .describe('The live feed (`GET /transactionsmainnet/stream`)'),
        }),
      ),
      400: probeQueryProblem,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    operationId: 'getReady',
    summary:
      'Readiness of this replica: 503 SERVICE_UNAVAILABLE only while PostgreSQL or Redis refuses its credentials (or while it shuts down); an unreachable backend is reported (`unreachable`) but leaves it ready',
    responses: {
      200: jsonResponse(
        'Ready',
        z.object({
          status: z.literal('ready'),
          database: z.enum(['ok', 'unreachable']),
          cache: z.enum(['redis', 'memory', 'unreachable']),
        }),
      ),
      400: probeQueryProblem,
      503: problemResponse(
        "SERVICE_UNAVAILABLE: a backend refuses this replica's credentials (detail e.g. `this replica's credentials are refused: database: ok; cache: credentials refused`), or the process is shutting down",
      ),
    },
  });
}
