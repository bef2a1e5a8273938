/**
 * A local anvil chain spawned as a child process from the `@foundry-rs/anvil` package's platform
 * binary (its postinstall is not run, so the binary is resolved through the package).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

/** The anvil binary of this platform. */
export function anvilBinary(): string {
  const anvil = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json');
  const platform = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const pkg = createRequire(anvil).resolve(`${platform}/package.json`);
  return join(dirname(pkg), 'bin', 'anvil');
}

/** A running anvil. */
export interface Anvil {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** JSON-RPC call. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts anvil on 127.0.0.1:`port` (0 = a free port, read from anvil's "Listening on" line) with
 * `chainId` (automine: one block per transaction; switch to interval mining with the
 * `evm_setIntervalMining` RPC), resolving once it answers.
 *
 * @throws when anvil exits or does not answer within 30 s.
 */
export async function startAnvil(port: number, chainId: number): Promise<Anvil> {
  const args = ['--port', String(port), '--chain-id', String(chainId), '--host', '127.0.0.1'];
  // A fixed port is known in advance: anvil stays silent. Port 0 needs its banner.
  const child = spawn(anvilBinary(), port === 0 ? args : [...args, '--silent'], {
    stdio: ['ignore', port === 0 ? 'pipe' : 'ignore', 'ignore'],
  });
  if (port === 0) port = await listeningPort(child);
  const url = `http://127.0.0.1:${port}`;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await rpc('eth_chainId');
      break;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`anvil did not start on port ${port}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    port,
    process: child,
    rpc,
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (also when a signal ended it, e.g. Ctrl-C sent to the process group).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The port of anvil's "Listening on 127.0.0.1:<port>" line; its stdout is drained afterwards
 * (without --silent anvil logs every RPC call).
 *
 * @throws when anvil exits or prints no such line within 30 s.
 */
async function listeningPort(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    for await (const line of lines) {
      const match = /Listening on [0-9.]+:([0-9]+)/.exec(line);
      if (match) return Number(match[1]);
    }
  } finally {
    clearTimeout(timer);
    lines.close();
    child.stdout!.resume();
  }
  throw new Error('anvil exited before listening');
}
