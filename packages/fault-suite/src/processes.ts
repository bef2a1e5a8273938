/**
 * Child processes under test (redis-server, the APIs, the feeder, the seeder, PostgreSQL's tools):
 * spawned with their own environment, stdout and stderr appended to `<LOG_DIR>/<name>.log`, and
 * stopped by their own PID only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_DIR, REPO_ROOT } from './settings.js';

/** A running child process. */
export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Whether it is still running. */
  running(): boolean;
  /** Sends `signal` to this PID. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has ended. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link spawnLogged}. */
export interface SpawnOptions {
  /** Log file stem (`<LOG_DIR>/<name>.log`, appended to, so a restart keeps the history). */
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  /** The whole environment of the child (nothing of the suite's own is inherited but PATH). */
  env?: Record<string, string>;
}

/** Spawns a process with its output in a log file. @throws Error when it cannot be spawned. */
export function spawnLogged(opts: SpawnOptions): Child {
  const logFile = path.join(LOG_DIR, `${opts.name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(opts.command, [...opts.args], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (err) => resolve(err.message));
    child.once('exit', (code, signal) => {
      // Let the pipes drain before the log closes.
      setTimeout(() => log.end(), 50);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  if (child.pid === undefined) throw new Error(`${opts.name}: could not spawn ${opts.command}`);
  const pid = child.pid;
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name: opts.name,
    pid,
    logFile,
    exited,
    running,
    signal: (signal) => {
      if (running()) process.kill(pid, signal);
    },
    async stop(graceMs = 10_000) {
      if (!running()) return;
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => running() && process.kill(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Spawns `node <script> [args]` from the repository root. */
export function spawnNode(
  name: string,
  script: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Child {
  return spawnLogged({
    name,
    command: process.execPath,
    args: [path.join(REPO_ROOT, script), ...args],
    env,
  });
}

/**
 * Runs a command to completion.
 * @throws Error naming the log file when it exits non-zero.
 */
export async function runToEnd(opts: SpawnOptions): Promise<void> {
  const child = spawnLogged(opts);
  const code = await child.exited;
  if (code !== 0) throw new Error(`${opts.name} exited with ${code}; see ${child.logFile}`);
}

/**
 * Polls `check` every 50 ms until it resolves true.
 * @throws Error after `timeoutMs`, or when `child` exits first.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  child?: Child,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && !child.running())
      throw new Error(`${child.name} exited before ${what}; see ${child.logFile}`);
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Whether `url` answers 2xx within 1 s. */
export async function answersOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
  await res.arrayBuffer();
  return res.ok;
}
