/** Prometheus metrics (prom-client): default process metrics plus HTTP counts and latency. */
import type { RequestHandler, Request } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A service's metrics registry and the HTTP instruments every service has. */
export interface Metrics {
  readonly registry: Registry;
  /** `<prefix>http_requests_total{method,route,status}`. */
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  /** `<prefix>http_request_duration_seconds{method,route,status}`. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
}

/**
 * Creates a registry with default metrics and the HTTP instruments, names prefixed by `prefix`
 * (e.g. `gas_quote_`). One registry per app instance, so tests can build several apps.
 */
export function createMetrics(opts: { prefix: string }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: opts.prefix });
  const labelNames = ['method', 'route', 'status'] as const;
  return {
    registry,
    httpRequests: new Counter({
      name: `${opts.prefix}http_requests_total`,
      help: 'HTTP requests by method, matched route and status',
      labelNames,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: `${opts.prefix}http_request_duration_seconds`,
      help: 'HTTP request latency in seconds by method, matched route and status',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

/** The matched route pattern (bounded label cardinality); `unmatched` for 404s. */
function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** Records count and latency of every response. */
export function httpMetricsMiddleware(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** `GET /metrics` handler in the Prometheus text format. */
export function metricsHandler(registry: Registry): RequestHandler {
  return (_req, res, next) => {
    registry
      .metrics()
      .then((text) => res.type(registry.contentType).send(text))
      .catch(next);
  };
}
