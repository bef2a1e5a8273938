/**
 * The indexer as a process (`node dist/bin/indexer.js`, built), for the tests that kill it and
 * start it again: children started with only the environment given (and `PATH`), stderr piped,
 * and killed with SIGKILL by {@link IndexerProcesses.killAll} after the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built indexer entry point. */
const ENTRY = fileURLToPath(new URL('../../../dist/bin/indexer.js', import.meta.url));

/** The indexer processes a test file started that are still running. */
export class IndexerProcesses {
  readonly #running = new Set<ChildProcess>();

  /** Starts the indexer with `env` (plus this process's `PATH`); stdout ignored, stderr piped. */
  start(env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [ENTRY], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#running.add(child);
    child.once('exit', () => this.#running.delete(child));
    return child;
  }

  /** Kills every indexer still running with SIGKILL (does not wait for them to exit). */
  killAll(): void {
    for (const child of this.#running) child.kill('SIGKILL');
  }
}

/** Resolves with the exit code of `child` once it has exited (null when a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}
