/**
 * One HTTP workload run with autocannon (programmatic API), in this process: the load generator
 * shares the machine with the services, as the targets require.
 */
import autocannon from 'autocannon';

/** Request headers sent with every request of a plan, lower-case names (RFC 9110 section 5). */
export type RequestHeaders = Readonly<Record<string, string>>;

/** A request rotation: each request takes the next path of the list (shared across connections). */
export interface PathRotation {
  readonly kind: 'paths';
  readonly paths: readonly string[];
  readonly headers?: RequestHeaders;
}

/**
 * Walks through pages: `first(index)` gives the n-th walk's first path, and `next(path, status,
 * body)` the following path from a response (e.g. with its next_cursor), or undefined when that
 * walk is done. Continuations are served before new walks start.
 */
export interface Walk {
  readonly kind: 'walk';
  readonly headers?: RequestHeaders;
  first(index: number): string;
  next(path: string, status: number, body: string): string | undefined;
}

/** What to request. */
export type RequestPlan = PathRotation | Walk;

/** Options of {@link runLoad}. */
export interface LoadOptions {
  /** Base URL, e.g. http://127.0.0.1:3001 */
  readonly baseUrl: string;
  readonly plan: RequestPlan;
  readonly connections: number;
  /** Measured seconds. */
  readonly durationSeconds: number;
  /** Unmeasured seconds first (JIT, pools, caches of the OS). */
  readonly warmupSeconds: number;
  /** Called between the warm-up and the measured run. */
  readonly beforeMeasure?: () => Promise<void>;
}

/** The figures of one workload. Latencies in milliseconds. */
export interface LoadResult {
  /** Mean responses per second over the measured run (all statuses). */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly average: number;
  readonly total: number;
  /** Responses with a status outside 200-299 (a workload with any is reported as invalid). */
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Counts by status code. */
  readonly statuses: Record<string, number>;
  /** Mean bytes received per response (status line, headers and body as sent on the wire). */
  readonly bytesPerResponse: number | undefined;
}

function toRequests(plan: RequestPlan): autocannon.Request[] {
  if (plan.kind === 'paths') {
    let i = 0;
    const { paths } = plan;
    return [
      {
        method: 'GET',
        headers: { ...plan.headers },
        setupRequest: (req) => {
          req.path = paths[i++ % paths.length];
          return req;
        },
      },
    ];
  }
  // autocannon clears a client's context each time it loops over the request list, so walks
  // cannot live in the context: continuations go to a shared queue that any connection takes
  // from first (several walks in flight, as an aggregator with a few workers would run them).
  let walks = 0;
  const pending: string[] = [];
  interface WalkContext {
    path?: string | undefined;
  }
  return [
    {
      method: 'GET',
      headers: { ...plan.headers },
      setupRequest: (req, context) => {
        const ctx = context as WalkContext;
        ctx.path = pending.shift() ?? plan.first(walks++);
        req.path = ctx.path;
        return req;
      },
      onResponse: (status, body, context) => {
        const ctx = context as WalkContext;
        const next = ctx.path === undefined ? undefined : plan.next(ctx.path, status, body);
        if (next !== undefined) pending.push(next);
      },
    },
  ];
}

async function once(opts: LoadOptions, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    duration: seconds,
    requests: toRequests(opts.plan),
    timeout: 10,
  });
}

/** Warms up, then measures `opts.plan` against `opts.baseUrl`. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupSeconds > 0) await once(opts, opts.warmupSeconds);
  await opts.beforeMeasure?.();
  const r = await once(opts, opts.durationSeconds);
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {}))
    statuses[code] = stat.count ?? 0;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    average: r.latency.average,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
    // autocannon counts the bytes of every response (excludeErrorStats is off).
    bytesPerResponse: r.requests.total > 0 ? r.throughput.total / r.requests.total : undefined,
  };
}
