/**
 * The suite's own PostgreSQL 15 cluster: initdb with a scram-sha-256 password in a temporary
 * directory owned by `postgres`, pg_ctl start on PORTS.postgres, and "kill" as
 * `pg_ctl stop -m immediate` (every backend quits at once without a checkpoint: a crash as
 * clients see it), then start again (crash recovery). Stopped by its data directory only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runToEnd } from './processes.js';
import { DB_PASSWORD, PORTS } from './settings.js';

/** PostgreSQL binaries (Debian layout). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A cluster managed by the suite. */
export interface Postgres {
  /** URL the services get (password inside, as a Secret would hold it). */
  readonly url: string;
  /** The server log (copied next to the other logs at the end). */
  readonly logFile: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): Promise<void>;
}

/** Whether the PostgreSQL 15 binaries are installed and `postgres` can run them. */
export function postgresAvailable(): boolean {
  if (!existsSync(path.join(PG_BIN, 'initdb')) || !existsSync(path.join(PG_BIN, 'pg_ctl')))
    return false;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const asPostgres = (name: string, command: string) =>
  runToEnd({ name, command: 'su', args: ['postgres', '-c', command] });

/**
 * Creates and starts the cluster.
 * @throws Error naming the log when initdb or pg_ctl fails.
 */
export async function createPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctss-faults-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${DB_PASSWORD}\n`, { mode: 0o600 });
  chownSync(pwfile, uid, gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  await asPostgres(
    'postgres-initdb',
    `${PG_BIN}/initdb -D ${data} -U postgres -A scram-sha-256 --pwfile=${pwfile} --no-sync`,
  );
  rmSync(pwfile);
  const opts = `-p ${PORTS.postgres} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    asPostgres('postgres-ctl', `${PG_BIN}/pg_ctl -D ${data} -l ${logFile} -o '${opts}' -w start`);
  const stop = (mode: string) =>
    asPostgres('postgres-ctl', `${PG_BIN}/pg_ctl -D ${data} -m ${mode} -w stop`);
  await start();
  return {
    url: `postgres://postgres:${DB_PASSWORD}@127.0.0.1:${PORTS.postgres}/postgres`,
    logFile,
    kill: () => stop('immediate'),
    start,
    async destroy() {
      if (existsSync(path.join(data, 'postmaster.pid'))) await stop('fast').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one query on `url` with a fresh connection. */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
