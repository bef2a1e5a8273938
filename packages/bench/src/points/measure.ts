/**
 * The cost of the points and rank job (apps/monitoring-api `dist/bin/rank-job.js`,
 * docs/decisions.md "D151. Exact, idempotent points"), measured on real PostgreSQL in a database
 * of its own (`ctss_bench_points`, dropped after): migrated by the API's migrate.js, filled with
 * `transfers` records from `wallets` senders (EVM and Solana source domains, 90 % confirmed, a
 * fifth testnet), then the job runs as a process:
 *
 * - full rebuild: the first run (no rule stored yet), then 3 runs of `--rebuild`;
 * - incremental step: 3 rounds of `changed` new records (half of them from new senders), a reorg
 *   deleting a tenth as many and a status rewrite of as many again, then the next run;
 * - idle run: nothing changed.
 *
 * Times are the wall time of each job process (node start and connection included). Used by
 * `pnpm bench` (the `points-job` rows, main.ts) and `pnpm bench:points` (main.ts here).
 */
import path from 'node:path';
import pg from 'pg';
import { runNode } from '../child.js';
import { databaseUrl } from '../dataset.js';
import { median } from '../median.js';
import { MONITORING_APP_DIR } from '../paths.js';

const DATABASE = 'ctss_bench_points';

/** What one points job measurement found; times in seconds. */
export interface PointsJobResult {
  readonly transfers: number;
  readonly wallets: number;
  /** New records per incremental round (a tenth as many deleted and rewritten). */
  readonly changed: number;
  /** Time to insert the records (the harness's own SQL, not the job). */
  readonly seedSeconds: number;
  /** The first run: a rebuild because no rule was stored yet. */
  readonly firstRunSeconds: number;
  /** Each `--rebuild` run. */
  readonly rebuildSeconds: readonly number[];
  /** Each incremental run after a round of changes. */
  readonly incrementalSeconds: readonly number[];
  /** A run with nothing changed. */
  readonly idleSeconds: number;
}

/** Options of {@link measurePointsJob}. */
export interface MeasurePointsOptions {
  /** Admin connection to the PostgreSQL server (the database is created there). */
  readonly adminUrl: string;
  readonly transfers: number;
  readonly wallets: number;
  readonly changed: number;
  readonly log: (line: string) => void;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The SQL inserting `n` records from senders `offset .. offset + wallets - 1`. */
function insertSql(n: number, wallets: number, offset: number, salt: string): string {
  return `
    insert into transactions (network, source_tx_hash, source_domain, destination_domain, sender,
      recipient, deposit_amount, receive_amount, confirmed, destination_tx_status, created_at)
    select case when i % 5 = 0 then 'testnet' else 'mainnet' end,
           '0x' || md5('${salt}' || i::text) || md5('${salt}' || i::text),
           case when s % 10 = 0 then 5 else (s % 3) * 3 end,
           case when s % 10 = 0 then 0 else 5 end,
           case when s % 10 = 0 then 'Sol' || lpad(s::text, 40, '1')
                else '0x' || lpad(to_hex(s), 40, '0') end,
           'recipient', 1000000 + (i * 7919) % 5000000000, 1000000,
           i % 10 <> 0, 'success', timestamptz '2026-12-01' + (i % 86400) * interval '1 second'
      from generate_series(1::bigint, ${n}::bigint) i, lateral (select ${offset} + (i * 48271) % ${wallets} as s) w`;
}

/**
 * Measures the job as described above.
 *
 * @throws when the database cannot be created, the migration or a job process fails (exit code
 *   not 0); the database is dropped in every case.
 */
export async function measurePointsJob(o: MeasurePointsOptions): Promise<PointsJobResult> {
  const url = databaseUrl(o.adminUrl, DATABASE);
  await admin(o.adminUrl, `drop database if exists ${DATABASE} with (force)`);
  await admin(o.adminUrl, `create database ${DATABASE}`);
  const db = new pg.Client({ connectionString: url });
  try {
    await runNode({
      name: 'points-migrate',
      script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'migrate.js'),
      cwd: MONITORING_APP_DIR,
      env: { DATABASE_URL: url },
    });
    await db.connect();
    const seeded = performance.now();
    await db.query(insertSql(o.transfers, o.wallets, 1, 'seed'));
    await db.query('analyze');
    const seedSeconds = (performance.now() - seeded) / 1000;
    o.log(
      `points job: seeded ${o.transfers} transfers from ${o.wallets} senders in ${seedSeconds.toFixed(1)} s`,
    );

    const job = async (args: string[]): Promise<number> => {
      const started = performance.now();
      await runNode({
        name: 'points-job',
        script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'rank-job.js'),
        args,
        cwd: MONITORING_APP_DIR,
        env: { DATABASE_URL: url, LOG_LEVEL: 'warn' },
      });
      return (performance.now() - started) / 1000;
    };
    const seconds = (xs: readonly number[]) => xs.map((s) => s.toFixed(2)).join(', ');

    const firstRunSeconds = await job([]);
    o.log(`points job: first run (rebuild, no rule stored): ${firstRunSeconds.toFixed(2)} s`);
    const rebuildSeconds: number[] = [];
    for (let i = 0; i < 3; i++) rebuildSeconds.push(await job(['--rebuild']));
    o.log(`points job: --rebuild ${seconds(rebuildSeconds)} s`);

    const incrementalSeconds: number[] = [];
    const tenth = Math.max(1, Math.floor(o.changed / 10));
    for (let round = 0; round < 3; round++) {
      await db.query(insertSql(Math.ceil(o.changed / 2), o.wallets, 1, `new-${round}`));
      await db.query(
        insertSql(
          Math.floor(o.changed / 2),
          o.wallets,
          o.wallets + 1 + round * o.wallets,
          `fresh-${round}`,
        ),
      );
      await db.query(
        `delete from transactions where id in (select id from transactions order by id desc limit ${tenth})`,
      );
      await db.query(
        `update transactions set confirmed = true where id in (select id from transactions where not confirmed limit ${tenth})`,
      );
      incrementalSeconds.push(await job([]));
    }
    o.log(`points job: incremental ${seconds(incrementalSeconds)} s`);
    const idleSeconds = await job([]);
    return {
      transfers: o.transfers,
      wallets: o.wallets,
      changed: o.changed,
      seedSeconds,
      firstRunSeconds,
      rebuildSeconds,
      incrementalSeconds,
      idleSeconds,
    };
  } finally {
    await db.end().catch(() => undefined);
    await admin(o.adminUrl, `drop database if exists ${DATABASE} with (force)`).catch(
      () => undefined,
    );
  }
}

/** The Markdown table of a measurement (medians of the runs). */
export function pointsJobTable(r: PointsJobResult): string[] {
  const tenth = Math.max(1, Math.floor(r.changed / 10));
  return [
    '| points job step | transfers | senders | changed records | wall time (median of 3 job processes) |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| full rebuild (\`rank-job.js --rebuild\`) | ${r.transfers} | ${r.wallets} | all | ${median(r.rebuildSeconds).toFixed(2)} s |`,
    `| incremental step | ${r.transfers} | ${r.wallets} | ${r.changed} new, ${tenth} deleted, ${tenth} rewritten | ${median(r.incrementalSeconds).toFixed(2)} s |`,
    `| idle run (nothing changed; one run) | ${r.transfers} | ${r.wallets} | 0 | ${r.idleSeconds.toFixed(2)} s |`,
  ];
}
