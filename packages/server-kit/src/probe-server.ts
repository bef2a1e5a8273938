/**
 * The probe server of a background process (the indexer, the scheduled points job): `GET
 * /health`, `GET /ready` and `GET /metrics` on the process's PORT, for the chart's liveness and
 * readiness probes and Prometheus (docs/operations.md "Readiness"). No other route: everything
 * else is a 404 problem.
 */
import type { Server } from 'node:http';
import express from 'express';
import type { Registry } from 'prom-client';
import { createEdgeServer } from './http-server.js';
import { listen } from './lifecycle.js';
import type { Logger } from './logger.js';
import { metricsHandler } from './metrics.js';
import { DependencyUnavailableError, notFoundHandler, problemHandler } from './problem.js';
import { withTimeout } from './timeout.js';

/** What {@link startProbeServer} serves. */
export interface ProbeServerOptions {
  /** Port to listen on (0 picks a free one). */
  readonly port: number;
  /**
   * Where the server logs (server-kit's JSON logger): requests that failed (problem answers at
   * debug, unexpected errors at error) and the edge server's own lines (malformed requests,
   * refused connections, listener failures).
   */
  readonly logger: Logger;
  /** The registry `/metrics` answers with, in the Prometheus text format. */
  readonly registry: Registry;
  /** The JSON body of `/health` (always 200), built for each request from in-process state. */
  readonly health: () => unknown;
  /**
   * Resolves when the process's backend answers (e.g. a query of a table the process needs, so
   * an unmigrated database is not ready); `/ready` is then 200 `{ status: 'ready' }`.
   */
  readonly ready: () => Promise<unknown>;
  /** Backend named in `/ready`'s 503 problem (its detail, never its URL). Default `database`. */
  readonly readyDependency?: string;
  /** How long `ready` may take before `/ready` answers 503, milliseconds. Default 2000. */
  readonly readyTimeoutMs?: number;
}

/**
 * Starts the probe server on `opts.port` (server-kit's hardened edge server, without the drain's
 * readiness answer: the process has no traffic to drain). `/health` answers 200 with
 * `opts.health()`; `/ready` 200 `{ status: 'ready' }` once `opts.ready()` resolves within
 * `readyTimeoutMs`, else 503 DEPENDENCY_UNAVAILABLE with `Retry-After: 5`; `/metrics` the
 * registry; anything else 404 NOT_FOUND.
 *
 * @returns the listening server (closed by `runProcess` on shutdown) and its bound port.
 * @throws when the port is taken.
 */
export async function startProbeServer(
  opts: ProbeServerOptions,
): Promise<{ server: Server; port: number }> {
  const { logger } = opts;
  const dependency = opts.readyDependency ?? 'database';
  const timeoutMs = opts.readyTimeoutMs ?? 2_000;
  const app = express();
  app.get('/health', (_req, res) => {
    res.json(opts.health());
  });
  app.get('/ready', (_req, res, next) => {
    withTimeout(Promise.resolve().then(opts.ready), timeoutMs).then(
      () => res.json({ status: 'ready' }),
      () => next(new DependencyUnavailableError(dependency, 5)),
    );
  });
  app.get('/metrics', metricsHandler(opts.registry));
  app.use(notFoundHandler());
  app.use(problemHandler(logger));
  const server = createEdgeServer(app, { logger, readyPath: null });
  const port = await listen(server, opts.port);
  return { server, port };
}
