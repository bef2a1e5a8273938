/**
 * Child node processes under test (hello-world, the two APIs, the seeder): spawned with their own
 * environment, output to a log file under bench-results/, and stopped with SIGTERM (SIGKILL after
 * a grace period). Each is a separate process so its RSS and CPU are its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_DIR } from './paths.js';

/** A running child process. */
export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolves when the process has ended. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link startNode}. */
export interface StartNodeOptions {
  name: string;
  /** Script path (absolute, or relative to cwd). */
  script: string;
  args?: readonly string[];
  cwd: string;
  /** Added to (and overriding) the harness's own environment. */
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeFlags?: readonly string[];
}

/** Spawns `node [nodeFlags] script [args]`; stdout and stderr go to bench-results/<name>.log. */
export async function startNode(opts: StartNodeOptions): Promise<Child> {
  await mkdir(RUN_DIR, { recursive: true });
  const logFile = path.join(RUN_DIR, `${opts.name}.log`);
  const log = createWriteStream(logFile, { flags: 'w' });
  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeFlags ?? []), opts.script, ...(opts.args ?? [])],
    {
      cwd: opts.cwd,
      env: { ...process.env, NODE_OPTIONS: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      log.end();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  if (child.pid === undefined)
    throw new Error(`${opts.name}: could not start ${opts.script} (see ${logFile})`);
  const pid = child.pid;
  return {
    name: opts.name,
    pid,
    logFile,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited.catch(() => undefined);
      clearTimeout(timer);
    },
  };
}

/**
 * Runs a node script to completion.
 * @throws Error naming the log file when it exits non-zero.
 */
export async function runNode(opts: StartNodeOptions): Promise<void> {
  const child = await startNode(opts);
  const code = await child.exited;
  if (code !== 0) throw new Error(`${opts.name} exited with ${code}; see ${child.logFile}`);
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers with a status in 200-299, the child exits, or `timeoutMs` passes.
 * @throws Error naming the child's log file on exit or timeout.
 */
export async function waitForHttp(child: Child, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void child.exited.then((code) => (exitedWith = code));
  for (;;) {
    if (exitedWith !== undefined)
      throw new Error(
        `${child.name} exited with ${exitedWith} before it was ready; see ${child.logFile}`,
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(
        `${child.name} not ready at ${url} after ${timeoutMs} ms; see ${child.logFile}`,
      );
    await sleep(250);
  }
}
