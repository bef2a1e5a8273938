/**
 * `pnpm bench:points [--transfers N] [--wallets N] [--changed N]`: the cost of the points and
 * rank job (apps/monitoring-api `dist/bin/rank-job.js`, docs/decisions.md "D151. Exact,
 * idempotent points") on real PostgreSQL (DATABASE_URL, default the local server): a database of
 * its own is migrated, filled with N transfer records (default 1,000,000) from W senders (default
 * 100,000; EVM and Solana source domains, 90 % confirmed), then the job runs as a process:
 *
 * - `rebuild`: the first run (no rule stored yet: every sender recomputed), then `--rebuild`;
 * - `incremental`: after `changed` new records (half of them from new senders), a reorg deleting
 *   a tenth as many and a status rewrite of as many again, the next run (dirty senders only).
 *
 * Times are the wall time of each job process (node start and connection included), median of 3.
 * Prints a Markdown table and writes it to bench-results/points.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { runNode } from '../child.js';
import { databaseUrl } from '../dataset.js';
import { MONITORING_APP_DIR, RUN_DIR } from '../paths.js';

const DATABASE = 'ctss_bench_points';

function argOf(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${name} must be a positive integer`);
  return value;
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

async function main(): Promise<void> {
  const transfers = argOf('transfers', 1_000_000);
  const wallets = argOf('wallets', 100_000);
  const changed = argOf('changed', 1_000);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = databaseUrl(adminUrl, DATABASE);
  const log = (line: string) => process.stdout.write(`${line}\n`);

  await admin(adminUrl, `drop database if exists ${DATABASE} with (force)`);
  await admin(adminUrl, `create database ${DATABASE}`);
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
    await db.query(insertSql(transfers, wallets, 1, 'seed'));
    await db.query('analyze');
    log(
      `seeded ${transfers} transfers from ${wallets} senders in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
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
      return performance.now() - started;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    const first = await job([]);
    log(`first run (rebuild, no rule stored): ${(first / 1000).toFixed(2)} s`);
    const rebuilds: number[] = [];
    for (let i = 0; i < 3; i++) rebuilds.push(await job(['--rebuild']));
    log(`--rebuild: ${rebuilds.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);

    const steps: number[] = [];
    for (let round = 0; round < 3; round++) {
      await db.query(insertSql(changed / 2, wallets, 1, `new-${round}`));
      await db.query(
        insertSql(changed / 2, wallets, wallets + 1 + round * wallets, `fresh-${round}`),
      );
      await db.query(
        `delete from transactions where id in (select id from transactions order by id desc limit ${Math.max(1, changed / 10)})`,
      );
      await db.query(
        `update transactions set confirmed = true where id in (select id from transactions where not confirmed limit ${Math.max(1, changed / 10)})`,
      );
      steps.push(await job([]));
    }
    log(`incremental: ${steps.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);
    const idle = await job([]);

    const table = [
      '| points job step | transfers | senders | changed records | wall time (median of 3) |',
      '| --- | ---: | ---: | ---: | ---: |',
      `| full rebuild (\`rank-job.js --rebuild\`) | ${transfers} | ${wallets} | all | ${(median(rebuilds) / 1000).toFixed(2)} s |`,
      `| incremental step | ${transfers} | ${wallets} | ${changed} new, ${changed / 10} deleted, ${changed / 10} rewritten | ${(median(steps) / 1000).toFixed(2)} s |`,
      `| idle run (nothing changed) | ${transfers} | ${wallets} | 0 | ${(idle / 1000).toFixed(2)} s |`,
    ].join('\n');
    log(table);
    await mkdir(RUN_DIR, { recursive: true });
    await writeFile(path.join(RUN_DIR, 'points.md'), `${table}\n`);
  } finally {
    await db.end().catch(() => undefined);
    await admin(adminUrl, `drop database if exists ${DATABASE} with (force)`).catch(
      () => undefined,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`points bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
