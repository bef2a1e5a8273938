/**
 * The database floor of a feed workload: the monitoring API's own feed statements (its built
 * `transactions/repository.js`, so the same SQL text and prepared-statement names), sent by a
 * minimal `pg` client loop at the workload's concurrency, for the workload's requests (the same
 * path rotation, or the same walks following the same cursors), each result read fully. Its
 * statements per second are what PostgreSQL alone allows on this host in this round; a feed row's
 * req/s over it says how much of that the API keeps.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { accountCpu, type CpuPerRequest } from './cpu.js';
import type { RequestPlan } from './load.js';
import { MONITORING_APP_DIR } from './paths.js';

/** The feed filter as the API's repository takes it (transactions/repository.ts FeedFilter). */
interface Filter {
  senders?: string[];
  match?: string;
  startTime?: number;
  endTime?: number;
  cursor?: { seconds: number; id: bigint };
}

/** What the floor uses of the API's build. */
interface FeedModules {
  buildStatement(
    network: 'mainnet',
    filter: Filter,
    fields: readonly unknown[],
  ): {
    statement: { name: string; text: string };
    values: (filter: Filter, limit: number) => unknown[];
  };
  MAINNET_FIELDS: readonly unknown[];
}

/** The figures of a floor run. Latencies ms. */
export interface FloorResult {
  /** Statements answered per second over the measured run. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly total: number;
  /** CPU per statement; `apiUs` and `loadGeneratorUs` are both this (client) process. */
  readonly cpu: CpuPerRequest | undefined;
}

/** Options of {@link measureDbFloor}. */
export interface FloorOptions {
  readonly databaseUrl: string;
  readonly plan: RequestPlan;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
}

/** The feed default page size (transactions/schemas.ts FEED_DEFAULT_LIMIT). */
const DEFAULT_LIMIT = 10;

async function loadModules(): Promise<FeedModules> {
  const dist = path.join(MONITORING_APP_DIR, 'dist', 'transactions');
  const repository = (await import(pathToFileURL(path.join(dist, 'repository.js')).href)) as {
    buildStatement: FeedModules['buildStatement'];
  };
  const record = (await import(pathToFileURL(path.join(dist, 'record.js')).href)) as {
    MAINNET_FIELDS: readonly unknown[];
  };
  return { buildStatement: repository.buildStatement, MAINNET_FIELDS: record.MAINNET_FIELDS };
}

/** The filter and page size of a `/transactionsmainnet?...` path of the bench's plans. */
function filterOfPath(requestPath: string): { filter: Filter; limit: number } {
  const url = new URL(requestPath, 'http://x');
  const params = url.searchParams;
  const filter: Filter = {};
  const senders = params.get('senders');
  if (senders) filter.senders = senders.split(',').filter(Boolean);
  const match = params.get('addr_or_tx_hash');
  if (match) filter.match = match;
  const start = params.get('start_time');
  if (start) filter.startTime = Number(start);
  const end = params.get('end_time');
  if (end) filter.endTime = Number(end);
  const cursor = params.get('cursor');
  if (cursor) {
    const [seconds, id] = cursor.split('_') as [string, string];
    filter.cursor = { seconds: Number(seconds), id: BigInt(id) };
  }
  const limit = params.get('limit');
  return { filter, limit: limit ? Number(limit) : DEFAULT_LIMIT };
}

/** The `next_cursor` of a page's JSON text, read from the envelope's end. */
function cursorOf(body: string): string {
  const at = body.lastIndexOf(NEXT_CURSOR_KEY);
  if (at < 0) throw new Error('a feed page without next_cursor');
  const from = at + NEXT_CURSOR_KEY.length;
  return body.slice(from, body.indexOf('"', from));
}
const NEXT_CURSOR_KEY = '"next_cursor":"';

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Runs the floor loop (see the module comment).
 *
 * @throws the first PostgreSQL error of a statement.
 */
export async function measureDbFloor(opts: FloorOptions): Promise<FloorResult> {
  const modules = await loadModules();
  const shapes = new Map<string, ReturnType<FeedModules['buildStatement']>>();
  const statementOf = (filter: Filter) => {
    const key = Object.keys(filter).join(',') + (filter.senders?.length === 1 ? '1' : '');
    let shape = shapes.get(key);
    if (shape === undefined) {
      shape = modules.buildStatement('mainnet', filter, modules.MAINNET_FIELDS);
      shapes.set(key, shape);
    }
    return shape;
  };
  const clients = await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      const client = new pg.Client({ connectionString: opts.databaseUrl });
      await client.connect();
      return client;
    }),
  );
  let next = 0;
  const firstPath = (): string => {
    const n = next++;
    return opts.plan.kind === 'paths'
      ? opts.plan.paths[n % opts.plan.paths.length]!
      : opts.plan.first(n);
  };
  let measuring = false;
  let stopped = false;
  const latencies: number[] = [];
  const worker = async (client: pg.Client, answered: () => void) => {
    let current: { filter: Filter; limit: number } | undefined;
    while (!stopped) {
      current ??= filterOfPath(firstPath());
      const { filter, limit } = current;
      const shape = statementOf(filter);
      const began = performance.now();
      const result = await client.query({
        name: shape.statement.name,
        text: shape.statement.text,
        values: shape.values(filter, limit),
        rowMode: 'array',
      });
      answered();
      if (measuring) latencies.push(performance.now() - began);
      // The page is one row, its body first; the envelope ends with its next_cursor ('' on the
      // last page): `..."next_cursor":"<cursor>","has_more":<bool>}` (docs/api.md "Pagination").
      const nextCursor = cursorOf(String((result.rows as unknown[][])[0]![0]));
      current = undefined;
      // A walk follows the page's cursor, as the API's next_cursor.
      if (opts.plan.kind === 'walk' && nextCursor !== '') {
        const [seconds, id] = nextCursor.split('_') as [string, string];
        current = {
          filter: { ...filter, cursor: { seconds: Number(seconds), id: BigInt(id) } },
          limit,
        };
      }
    }
  };
  // The CPU account reads /proc file by file: taken while the loop is idle (before it starts and
  // after it stops; a saturated event loop made each read wait behind the result sets), so it
  // spans the warm-up too and is divided by every statement of that span.
  let statements = 0;
  const account = await accountCpu(process.pid);
  const running = Promise.all(
    clients.map(async (client) => {
      await worker(client, () => (statements += 1));
    }),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, opts.warmupSeconds * 1000));
    measuring = true;
    const began = performance.now();
    await new Promise((resolve) => setTimeout(resolve, opts.durationSeconds * 1000));
    measuring = false;
    const seconds = (performance.now() - began) / 1000;
    const total = latencies.length;
    stopped = true;
    await running;
    const cpu = await account.stop(statements);
    latencies.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return {
      rps: total / seconds,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      total,
      cpu,
    };
  } finally {
    stopped = true;
    await running.catch(() => undefined);
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}
