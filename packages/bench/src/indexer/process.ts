/**
 * What every family of `pnpm bench:indexer` shares (packages/bench/README.md "Indexer"): a fresh,
 * migrated database of its own, the indexer process (`apps/monitoring-api`
 * `dist/bin/indexer.js`) started on it with the family's chains, and percentiles.
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

/** The indexer process on its database, ready (its `/ready` answered). */
export interface RunningIndexer {
  /** Two connections to the indexer's database, for the bench's reads. */
  readonly db: pg.Pool;
  /** Rows of `transactions`. */
  records(): Promise<number>;
  /** Resolves once `transactions` holds `n` rows (polled every 50 ms). */
  waitForRecords(n: number): Promise<void>;
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
  return {
    db,
    records,
    async waitForRecords(n) {
      while ((await records()) < n) await sleep(50);
    },
    stop,
  };
}
