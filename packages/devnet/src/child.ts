/**
 * A service run as a child Node process (the demo's services, the end-to-end tests' Gas Quote
 * API): its output lines are handed to `onLine` (and echoed with a name prefix unless turned
 * off), and it is stopped by its PID with SIGTERM, then SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running child service. */
export interface ChildService {
  readonly name: string;
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs` (ms) if it is still running. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link startChild}. */
export interface ChildOptions {
  /** Called with each stdout/stderr line (e.g. to read a value the service logs). */
  readonly onLine?: (line: string) => void;
  /** Echo each line to this process's stdout as `[name] line` (default true). */
  readonly echo?: boolean;
  /** Command-line arguments after the entry (default none). */
  readonly args?: readonly string[];
}

/** Spawns `node entry [args]` with `env` added to this process's environment. */
export function startChild(
  name: string,
  entry: string,
  env: Record<string, string>,
  { onLine = () => {}, echo = true, args = [] }: ChildOptions = {},
): ChildService {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (echo) process.stdout.write(`[${name}] ${line}\n`);
      onLine(line);
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  return {
    name,
    process: child,
    exited,
    async stop(graceMs = 12_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls `url` until it answers 2xx.
 *
 * @throws when `child` exits first (with a code, or killed by a signal) or `timeoutMs` (ms) passes.
 */
export async function waitForOk(
  url: string,
  child: ChildService,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = child.process;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${child.name} exited (${exitCode ?? signalCode})`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${child.name}: ${url} not ready in time`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
