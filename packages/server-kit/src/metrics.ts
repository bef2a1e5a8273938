/** Prometheus metrics (prom-client): default process metrics plus HTTP counts and latency. */
import type { IRouter, Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RefusalReason } from './connection-limits.js';

/** A service's metrics registry and the HTTP instruments every service has. */
export interface Metrics {
  readonly registry: Registry;
  /** The prefix of every metric name in `registry` (e.g. `gas_quote_`, `monitoring_`). */
  readonly prefix: string;
  /** `<prefix>http_requests_total{method,route,status}`. */
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  /** `<prefix>http_request_duration_seconds{method,route,status}`. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** `<prefix>http_open_connections`: connections admitted and open on the API server (refused ones not included). */
  readonly openConnections: Gauge;
  /** `<prefix>http_connections_refused_total{reason}`: `address`, `process` or `hard` (connection-limits.ts). */
  readonly connectionsRefused: Counter<'reason'>;
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
    prefix: opts.prefix,
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
    openConnections: new Gauge({
      name: `${opts.prefix}http_open_connections`,
      help: 'Connections admitted and open on the API server (connections refused over a limit are counted in http_connections_refused_total)',
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: `${opts.prefix}http_connections_refused_total`,
      help: 'Connections refused over the connection limits: address (per-address cap, 429), process (per-process cap, 503), hard (closed at accept)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
  };
}

/**
 * The `onRefused` and `onOpenChange` hooks of `createEdgeServer` (http-server.ts) that keep
 * {@link Metrics.openConnections} and {@link Metrics.connectionsRefused}.
 */
export function connectionMetricHooks(metrics: Metrics): {
  onRefused: (reason: RefusalReason) => void;
  onOpenChange: (delta: 1 | -1) => void;
} {
  // One labelled child per reason, so a flood's thousands of refusals a second do not each
  // hash their labels.
  const refused = {
    address: metrics.connectionsRefused.labels({ reason: 'address' }),
    process: metrics.connectionsRefused.labels({ reason: 'process' }),
    hard: metrics.connectionsRefused.labels({ reason: 'hard' }),
  } satisfies Record<RefusalReason, unknown>;
  return {
    onRefused: (reason) => refused[reason].inc(),
    onOpenChange: (delta) => metrics.openConnections.inc(delta),
  };
}

/**
 * The route-label state of one request, kept in Express's request-scoped `res.locals`: the mount
 * patterns of the routers the request is inside (set by {@link mountRouter}) and whether it
 * reached the 404 handler (set by {@link markUnmatched}).
 */
interface RouteLabelLocals {
  routeMount?: string;
  routeUnmatched?: boolean;
}

function labelLocals(res: Response): RouteLabelLocals {
  return res.locals as RouteLabelLocals;
}

/**
 * Mounts `router` at the literal `path` on `parent` and records `path` as the route label prefix of
 * the requests it handles, so labels are patterns (`/stats/mainnet/volumes`) and not the request's
 * text (`req.baseUrl` keeps the client's case, `/STATS`, and would let clients mint label values).
 * A request the router does not answer leaves with the prefix removed.
 */
export function mountRouter(parent: IRouter, path: string, router: RequestHandler): void {
  parent.use(
    path,
    (_req, res, next) => {
      const locals = labelLocals(res);
      locals.routeMount = `${locals.routeMount ?? ''}${path}`;
      next();
    },
    router,
    (_req, res, next) => {
      const locals = labelLocals(res);
      const pattern = locals.routeMount ?? '';
      locals.routeMount = pattern.slice(0, pattern.length - path.length);
      next();
    },
  );
}

/** Middleware placed before the 404 handler: the request matched no route (label `unmatched`). */
export function markUnmatched(): RequestHandler {
  return (_req, res, next) => {
    labelLocals(res).routeUnmatched = true;
    next();
  };
}

/**
 * The matched route pattern (bounded label cardinality): the mount patterns of
 * {@link mountRouter} plus the route's path; `unmatched` for 404s and requests no route took.
 */
export function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  const locals = req.res ? labelLocals(req.res) : {};
  if (locals.routeUnmatched || typeof route?.path !== 'string') return 'unmatched';
  return `${locals.routeMount ?? ''}${route.path}`;
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
