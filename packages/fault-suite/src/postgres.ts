/**
 * The suite's own PostgreSQL 15 cluster: initdb with a scram-sha-256 password in a temporary
 * directory owned by `postgres`, pg_ctl start on PORTS.postgres, and "kill" as
 * `pg_ctl stop -m immediate` (every backend quits at once without a checkpoint: a crash as
 * clients see it), then start again (crash recovery). Stopped by its data directory only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { runToEnd, spawnNode, waitUntil, type Child } from './processes.js';
import { DB_PASSWORD, PORTS } from './settings.js';

/** PostgreSQL binaries: `FAULTS_PG_BIN`, else the Debian layout of version 15. */
export const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** initdb refuses root: as root the tools run as `postgres` (su), otherwise as the current user. */
const isRoot = process.getuid?.() === 0;

/** A cluster managed by the suite. */
export interface Postgres {
  /** URL the services get (password inside, as a Secret would hold it). */
  readonly url: string;
  /** The server log (copied next to the other logs at the end). */
  readonly logFile: string;
  /** Whether this is the embedded fallback (seeded by itself, one statement at a time). */
  readonly embedded: boolean;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): Promise<void>;
}

/** Whether the PostgreSQL binaries are installed (and, as root, the `postgres` user exists). */
export function postgresAvailable(): boolean {
  if (!existsSync(path.join(PG_BIN, 'initdb')) || !existsSync(path.join(PG_BIN, 'pg_ctl')))
    return false;
  if (!isRoot) return true;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const asPostgres = (name: string, command: string) =>
  isRoot
    ? runToEnd({ name, command: 'su', args: ['postgres', '-c', command] })
    : runToEnd({ name, command: 'sh', args: ['-c', command] });

/**
 * Creates and starts the cluster.
 * @throws Error naming the log when initdb or pg_ctl fails.
 */
export async function createPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctss-faults-pg-'));
  chmodSync(dir, 0o700);
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${DB_PASSWORD}\n`, { mode: 0o600 });
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
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
    embedded: false,
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

/**
 * The fallback when the PostgreSQL binaries are absent: the embedded PGlite socket server as a
 * child process on PORTS.postgres with a durable data directory. PGlite has no authentication,
 * so no database password is set (and none can be checked in the logs); "kill" stops it with
 * SIGTERM, since PGlite's data directory is not crash-safe.
 */
export async function createEmbeddedPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctss-faults-pglite-'));
  let child: Child | undefined;
  const url = `postgres://postgres@127.0.0.1:${PORTS.postgres}/postgres`;
  let seeded = false;
  let starts = 0;
  const start = async () => {
    const c = spawnNode('postgres-embedded', 'packages/fault-suite/dist/embedded-postgres.js', {}, [
      path.join(dir, 'data'),
      String(PORTS.postgres),
      ...(seeded ? [] : ['--seed']),
    ]);
    child = c;
    starts += 1;
    // The child prints its "listening" line once seeded and serving.
    await waitUntil(
      'the embedded PostgreSQL',
      async () => (await readFile(c.logFile, 'utf8')).split('listening:').length - 1 >= starts,
      180_000,
      c,
    );
    seeded = true;
  };
  await start();
  return {
    url,
    logFile: path.join(dir, 'none.log'),
    embedded: true,
    kill: async () => {
      await child?.stop(10_000);
    },
    start,
    async destroy() {
      await child?.stop(10_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
