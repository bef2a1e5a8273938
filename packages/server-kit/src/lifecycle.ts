/**
 * Process lifecycle: listen, and on SIGTERM/SIGINT drain (http-server.ts `drainHttpServer`: stop
 * accepting, `/ready` 503, `Connection: close`, requests in flight finish, idle keep-alive
 * connections close, bounded by a timeout), close pools and sockets, flush logs, exit.
 */
import type { Server } from 'node:http';
import { drainHttpServer } from './http-server.js';
import type { Logger } from './logger.js';

/** What a service's start function hands back. */
export interface RunningService {
  /** The listening HTTP server (made by `createEdgeServer` for the clean drain). */
  server: Server;
  /** The METRICS_PORT server, when one is configured: closed after the HTTP drain, so scrapes see it. */
  metricsServer?: Server | undefined;
  /** Closes everything else (WebSockets, Redis, database pools); called after HTTP drained. */
  close: () => Promise<void>;
}

/** Options of {@link runService}. */
export interface RunServiceOptions {
  name: string;
  logger: Logger;
  start: () => Promise<RunningService>;
  /** Longest drain before remaining connections are cut, ms (default 10 000). */
  drainTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this long during the drain, ms (default 1000). */
  idleGraceMs?: number;
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
      const drained = await drainHttpServer(running.server, {
        timeoutMs: opts.drainTimeoutMs ?? 10_000,
        idleGraceMs: opts.idleGraceMs,
      });
      if (drained.forced > 0) {
        opts.logger.warn(drained, 'drain timed out: remaining connections were cut');
      } else {
        opts.logger.info(drained, 'HTTP drained');
      }
      if (running.metricsServer) {
        await drainHttpServer(running.metricsServer, { timeoutMs: 1000, idleGraceMs: 0 });
      }
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

/**
 * Length of the accept queue asked of the kernel (Linux caps it at `net.core.somaxconn`, 4096 by
 * default): deeper than Node's 511, so a burst of connections (a flood the connection limits
 * refuse, docs/operations.md "Connection limits") does not overflow it and make other clients'
 * connection attempts wait for a SYN retransmission (1 s and more).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Resolves when `server` listens on `port` (0 picks a free port) with an accept queue of
 * {@link LISTEN_BACKLOG}; returns the bound port.
 */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, LISTEN_BACKLOG, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
