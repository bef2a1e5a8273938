/**
 * Process lifecycle: listen, and on SIGTERM/SIGINT stop accepting connections, drain in-flight
 * requests (bounded by a timeout), close pools and sockets, flush logs, exit.
 */
import type { Server } from 'node:http';
import type { Logger } from './logger.js';

/** What a service's start function hands back. */
export interface RunningService {
  /** The listening HTTP server. */
  server: Server;
  /** Closes everything else (WebSockets, Redis, database pools); called after HTTP drained. */
  close: () => Promise<void>;
}

/** Options of {@link runService}. */
export interface RunServiceOptions {
  name: string;
  logger: Logger;
  start: () => Promise<RunningService>;
  /** Longest drain before remaining connections are cut (default 10 s). */
  drainTimeoutMs?: number;
}

/**
 * Starts the service and installs the shutdown handlers. Resolves with a `shutdown` function
 * (also what SIGTERM calls) so tests can stop the service the same way the signal does.
 *
 * @throws whatever `start` throws (the caller logs it and exits 1).
 */
export async function runService(
  opts: RunServiceOptions,
): Promise<{ shutdown: (reason: string) => Promise<void> }> {
  const running = await opts.start();
  let stopping: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      opts.logger.info({ reason }, `${opts.name} shutting down`);
      const drained = new Promise<void>((resolve) => running.server.close(() => resolve()));
      running.server.closeIdleConnections();
      const timer = setTimeout(
        () => running.server.closeAllConnections(),
        opts.drainTimeoutMs ?? 10_000,
      );
      timer.unref();
      await drained;
      clearTimeout(timer);
      try {
        await running.close();
      } catch (err) {
        opts.logger.error({ err }, 'error while closing resources');
      }
      opts.logger.info(`${opts.name} stopped`);
      opts.logger.flush();
    })();
    return stopping;
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return { shutdown };
}

/** Resolves when `server` listens on `port` (0 picks a free port); returns the bound port. */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
