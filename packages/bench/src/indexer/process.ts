/**
 * What every family of `pnpm bench:indexer` shares (packages/bench/README.md "Indexer"): a fresh,
 * migrated database of its own, the indexer process (`apps/monitoring-api`
 * `dist/bin/indexer.js`) started on it with the family's chains, waits bounded by a deadline and
 * by the process's exit, the head-latency poller of `transactions`, and percentiles.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, runNode, startNode, waitForHttp, type Child } from '../child.js';
import { databaseUrl } from '../dataset.js';
import { MONITORING_APP_DIR } from '../paths.js';

/** p-th percentile (0-100) of `values` (nearest rank), ms; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Runs one statement on the server's maintenance database (`adminUrl`). */
async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * How long a backfill of `records` rows may take before the run gives up, ms: 120 s plus 10 ms a
 * record (100 records/s at worst, far below every family's measured rate).
 */
export const backfillTimeoutMs = (records: number): number => 120_000 + 10 * records;

/**
 * Resolves once `done()` is true, checked every 50 ms while `child` runs.
 *
 * @param what - what is awaited, for the error ("10000 records").
 * @throws Error naming `child`'s log file when the process exits first or `timeoutMs` (ms)
 *   passes; whatever `done` throws.
 */
export async function waitWhileRunning(
  child: Child,
  what: string,
  done: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void child.exited.then(
    (code) => (exitedWith = code),
    (err: unknown) => (exitedWith = String(err)),
  );
  for (;;) {
    if (await done()) return;
    if (exitedWith !== undefined)
      throw new Error(
        `${child.name} exited with ${exitedWith} before ${what}; see ${child.logFile}`,
      );
    if (Date.now() > deadline)
      throw new Error(`${child.name}: no ${what} after ${timeoutMs} ms; see ${child.logFile}`);
    await sleep(50);
  }
}

/** The indexer process on its database, ready (its `/ready` answered). */
export interface RunningIndexer {
  /** Two connections to the indexer's database, for the bench's reads. */
  readonly db: pg.Pool;
  /** Rows of `transactions`. */
  records(): Promise<number>;
  /**
   * Resolves once `transactions` holds `n` rows (polled every 50 ms).
   *
   * @param timeoutMs - default {@link backfillTimeoutMs} of `n`.
   * @throws Error naming the process's log file when it exits first or `timeoutMs` (ms) passes.
   */
  waitForRecords(n: number, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once `done()` is true (checked every 50 ms); see {@link waitWhileRunning}.
   *
   * @throws Error naming the process's log file when it exits first or `timeoutMs` (ms) passes.
   */
  waitUntil(what: string, done: () => Promise<boolean>, timeoutMs: number): Promise<void>;
  /** Stops the process and drops its database. */
  stop(): Promise<void>;
}

/**
 * Creates `database` afresh on `adminUrl`'s server, migrates it, and starts the indexer process
 * there with `env` (its chains) added to `DATABASE_URL`, `PORT`, `IRIS_URL` and `LOG_LEVEL=warn`.
 *
 * @throws when the migration fails or the process is not ready within 120 s (its log named).
 */
export async function startIndexerProcess(o: {
  readonly adminUrl: string;
  readonly database: string;
  /** Child name: its log is bench-results/<name>.log. */
  readonly name: string;
  readonly irisUrl: string;
  readonly env: Record<string, string>;
}): Promise<RunningIndexer> {
  await admin(o.adminUrl, `drop database if exists ${o.database}`);
  await admin(o.adminUrl, `create database ${o.database}`);
  const url = databaseUrl(o.adminUrl, o.database);
  const db = new pg.Pool({ connectionString: url, max: 2 });
  let child: Child | undefined;
  const stop = async () => {
    await child?.stop();
    await db.end();
    await admin(o.adminUrl, `drop database if exists ${o.database}`).catch(() => undefined);
  };
  try {
    await runNode({
      name: `${o.name}-migrate`,
      script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'migrate.js'),
      cwd: MONITORING_APP_DIR,
      env: { DATABASE_URL: url },
    });
    const port = await freePort();
    child = await startNode({
      name: o.name,
      script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'indexer.js'),
      cwd: MONITORING_APP_DIR,
      env: {
        DATABASE_URL: url,
        PORT: String(port),
        IRIS_URL: o.irisUrl,
        LOG_LEVEL: 'warn',
        ...o.env,
      },
    });
    await waitForHttp(child, `http://127.0.0.1:${port}/ready`);
  } catch (error) {
    await stop();
    throw error;
  }
  const records = async () =>
    Number(
      (await db.query<{ n: string }>(`select count(*)::text as n from transactions`)).rows[0]!.n,
    );
  const running = child;
  const waitUntil = (what: string, done: () => Promise<boolean>, timeoutMs: number) =>
    waitWhileRunning(running, what, done, timeoutMs);
  return {
    db,
    records,
    waitForRecords: (n, timeoutMs = backfillTimeoutMs(n)) =>
      waitUntil(`${n} records`, async () => (await records()) >= n, timeoutMs),
    waitUntil,
    stop,
  };
}

/** When a watched record was first read, `performance.now()` ms. */
interface Arrival {
  /** First read in `transactions`. */
  readonly inAt?: number;
  /** First read with `confirmed = true`. */
  readonly confirmedAt?: number;
}

/** A timed transfer of a head-latency row: its origin id and the times its latencies start from. */
interface HeadSample {
  /** Its `source_tx_hash` as the indexer writes it. */
  readonly id: string;
  /** When the chain showed it (block mined, slot landed, event served), `performance.now()` ms. */
  readonly shownAt: number;
  /** When it became final on the chain, `performance.now()` ms; undefined: not (yet) final. */
  readonly finalAt?: number | undefined;
}

/**
 * The head latencies of `samples`, ms: from shown to first read (`inFeed`), and from final to
 * first read confirmed (`confirmed`); a sample not read (or not final) adds nothing.
 */
export function headLatencies(
  arrivals: ArrivalPoller,
  samples: readonly HeadSample[],
): { inFeed: number[]; confirmed: number[] } {
  const inFeed: number[] = [];
  const confirmed: number[] = [];
  for (const s of samples) {
    const { inAt, confirmedAt } = arrivals.arrival(s.id);
    if (inAt !== undefined) inFeed.push(inAt - s.shownAt);
    if (confirmedAt !== undefined && s.finalAt !== undefined)
      confirmed.push(confirmedAt - s.finalAt);
  }
  return { inFeed, confirmed };
}

/** The head-latency reader of `transactions` ({@link pollArrivals}). */
export interface ArrivalPoller {
  /** Watches the record of origin transaction `id` (its `source_tx_hash`, as the indexer writes it). */
  watch(id: string): void;
  /** The arrival of `id` so far (empty when not read yet or not watched). */
  arrival(id: string): Arrival;
  /**
   * Whether every watched record has been read (`confirmed`: read with `confirmed = true`).
   *
   * @throws the error that stopped the polling (e.g. the database gone).
   */
  allArrived(confirmed: boolean): boolean;
  /** Stops polling (waits for the read in progress); never rejects. */
  stop(): Promise<void>;
}

/**
 * Reads `transactions` every `everyMs` ms (default 20) for the watched records not yet read
 * confirmed (`source_tx_hash = any($1)`), and notes when each was first read and first read
 * confirmed: the head latency of every family (packages/bench/README.md "Indexer").
 */
export function pollArrivals(db: pg.Pool, everyMs = 20): ArrivalPoller {
  const arrivals = new Map<string, { inAt?: number; confirmedAt?: number }>();
  let polling = true;
  let failure: Error | undefined;
  const loop = (async () => {
    while (polling) {
      const open = [...arrivals].filter(([, a]) => a.confirmedAt === undefined).map(([id]) => id);
      if (open.length > 0) {
        const r = await db.query<{ h: string; c: boolean }>(
          `select source_tx_hash as h, confirmed as c from transactions where source_tx_hash = any($1)`,
          [open],
        );
        const now = performance.now();
        for (const row of r.rows) {
          const a = arrivals.get(row.h);
          if (!a) continue;
          a.inAt ??= now;
          if (row.c) a.confirmedAt ??= now;
        }
      }
      await sleep(everyMs);
    }
  })().catch((err: unknown) => {
    failure = err instanceof Error ? err : new Error(String(err));
  });
  return {
    watch(id) {
      if (!arrivals.has(id)) arrivals.set(id, {});
    },
    arrival: (id) => arrivals.get(id) ?? {},
    allArrived(confirmed) {
      if (failure) throw failure;
      for (const a of arrivals.values()) {
        if ((confirmed ? a.confirmedAt : a.inAt) === undefined) return false;
      }
      return true;
    },
    async stop() {
      polling = false;
      await loop;
    },
  };
}
