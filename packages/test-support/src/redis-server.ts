/**
 * A redis-server of the test's own (never the shared one), to kill and restart: spawned as a child
 * on a fixed port, stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A test-owned Redis process. */
export interface RedisProcess {
  readonly url: string;
  /** Starts (or restarts) it; resolves once it accepts connections. No-op while it runs. */
  start(): Promise<void>;
  /** Kills it (SIGKILL: an abrupt loss, as a crash) and waits for the exit. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open but nothing is answered. */
  pause(): void;
  /** Unfreezes it (SIGCONT). */
  resume(): void;
}

/** A redis-server on `port` (not started yet). */
export function redisProcess(port: number): RedisProcess {
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      const proc = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--daemonize',
          'no',
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = proc;
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(
          () => reject(new Error(`redis-server did not start: ${out}`)),
          10_000,
        );
        proc.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ready to accept connections')) {
            clearTimeout(timer);
            resolve();
          }
        });
        proc.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`redis-server exited with ${code}: ${out}`));
        });
      });
      proc.stdout?.resume();
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
      await exited;
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}

/** Polls `check` every 20 ms until it holds. @throws after `ms` (default 10 s). */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
