/**
 * A PostgreSQL 15 server of a test file's own, which the test may kill, restart, freeze and thaw
 * (the shared server on 5432 is never touched). Runs as the `postgres` user (initdb refuses
 * root), in a temporary directory that also holds its Unix socket; stopped by its directory and
 * signalled by its postmaster's PID, never by process name.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

/** Whether this machine can run an own server: the binaries exist and we may switch to `postgres`. */
export function canRunOwnPostgres(): boolean {
  return existsSync(join(BIN, 'initdb')) && process.getuid?.() === 0;
}

/** A running own server. */
export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth). */
  readonly url: string;
  /** A URL of database `name` on this server. */
  urlOf(name: string): string;
  /** Kills the server at once (`pg_ctl stop -m immediate`: connections see a reset). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Freezes every server process (SIGSTOP): connections stay open and nothing answers. */
  freeze(): Promise<void>;
  /** Thaws the processes of {@link freeze} (SIGCONT). */
  thaw(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

async function asPostgres(command: string): Promise<string> {
  const { stdout } = await run('su', ['postgres', '-c', command]);
  return stdout;
}

/** initdb (no fsync) and start a server listening on 127.0.0.1:`port`. */
export async function startOwnPostgres(port: number): Promise<OwnPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'ctss-own-pg-'));
  const { uid, gid } = await postgresIds();
  await chown(dir, uid, gid);
  const data = join(dir, 'data');
  await asPostgres(`${BIN}/initdb -D ${data} -A trust -N -U postgres >/dev/null`);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await asPostgres(`${BIN}/pg_ctl -D ${data} -o "${options}" -l ${dir}/log -w -t 30 start`);
  };
  let frozen: number[] = [];
  const processes = async (): Promise<number[]> => {
    const pid = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]);
    return [
      pid,
      ...stdout
        .split('\n')
        .map(Number)
        .filter((n) => n > 0),
    ];
  };
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  await start();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  return {
    url: `${base}/postgres`,
    urlOf: (name) => `${base}/${name}`,
    async kill() {
      await asPostgres(`${BIN}/pg_ctl -D ${data} -m immediate -w stop`);
    },
    start,
    async freeze() {
      frozen = await processes();
      signal(frozen, 'SIGSTOP');
    },
    thaw() {
      signal(frozen, 'SIGCONT');
      frozen = [];
      return Promise.resolve();
    },
    async destroy() {
      signal(frozen, 'SIGCONT');
      await asPostgres(`${BIN}/pg_ctl -D ${data} -m immediate -w stop`).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['postgres']);
  const uid = /uid=(\d+)/.exec(stdout)?.[1];
  const gid = /gid=(\d+)/.exec(stdout)?.[1];
  if (uid === undefined || gid === undefined) throw new Error('no postgres user');
  return { uid: Number(uid), gid: Number(gid) };
}
