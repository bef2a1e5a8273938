/**
 * `/metrics` on its own port (METRICS_PORT): Prometheus scrapes it inside the cluster while the
 * Ingress exposes only the API port, and scrapes never meet the API's rate limit. The answer is
 * built from in-process values only (the registry's collectors read no backend).
 */
import type { Server } from 'node:http';
import type { Registry } from 'prom-client';
import { createEdgeServer, requestPathname, respondWithProblem } from './http-server.js';
import type { Logger } from './logger.js';
import { listen } from './lifecycle.js';

/**
 * A hardened server answering `GET`/`HEAD /metrics` with `registry` in the Prometheus text
 * format, every other request with a 404 `NOT_FOUND` problem (405 is not worth a code here).
 */
export function createMetricsServer(registry: Registry, logger: Logger): Server {
  return createEdgeServer(
    (req, res) => {
      const path = requestPathname(req.url);
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        respondWithProblem(res, 404, 'NOT_FOUND', 'only GET /metrics is served on this port');
        return;
      }
      registry.metrics().then(
        (text) => {
          res.setHeader('Content-Type', registry.contentType);
          res.setHeader('Cache-Control', 'no-store');
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: unknown) => {
          logger.error({ err }, 'collecting metrics failed');
          respondWithProblem(res, 500, 'INTERNAL', 'internal error');
        },
      );
    },
    { logger, readyPath: null },
  );
}

/**
 * Starts {@link createMetricsServer} on `port` (0 picks a free one).
 * @returns the listening server and its bound port.
 * @throws when the port is taken.
 */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  logger: Logger,
): Promise<{ server: Server; port: number }> {
  const server = createMetricsServer(registry, logger);
  const bound = await listen(server, port);
  logger.info({ port: bound }, 'metrics listening');
  return { server, port: bound };
}
