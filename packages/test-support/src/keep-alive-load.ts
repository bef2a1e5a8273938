/**
 * Keep-alive load for shutdown tests: several clients, each with its own keep-alive agent (one
 * connection), loop a request until stopped, and count what happened to every request sent.
 */
import { Agent, get } from 'node:http';

/** Outcome counts of a {@link keepAliveLoad} run. */
export interface LoadResult {
  /** Requests answered with a complete response of status < 500. */
  readonly ok: number;
  /** Requests that failed after they were sent: reset, hang-up, truncated body, or a 5xx. */
  readonly failed: number;
  /** Failure descriptions (error codes or statuses), at most 20. */
  readonly failures: readonly string[];
  /** Connection attempts refused (the server no longer listens; no request was delivered). */
  readonly refused: number;
  /** Responses that carried `Connection: close`. */
  readonly closing: number;
}

/** A running load; `stop` ends the loops and resolves with the counts. */
export interface KeepAliveLoad {
  /** Resolves once every client answered at least one request (connections are open). */
  readonly warm: Promise<void>;
  stop(): Promise<LoadResult>;
}

/**
 * Starts `clients` loops of `GET url` on keep-alive agents. A client stops on its own when its
 * connection attempt is refused (ECONNREFUSED: the server stopped listening, which a load balancer
 * treats as "try another endpoint"), else when `stop` is called; a client whose last answer closed
 * its connection (`Connection: close`) still makes that one next attempt, so `stop` never cuts
 * off the reconnection a drain sends it to.
 */
export function keepAliveLoad(url: string, clients = 6): KeepAliveLoad {
  let stopped = false;
  let ok = 0;
  let failed = 0;
  let refused = 0;
  let closing = 0;
  const failures: string[] = [];
  const fail = (what: string): void => {
    failed += 1;
    if (failures.length < 20) failures.push(what);
  };
  const warmed: Promise<void>[] = [];

  const one = (agent: Agent): Promise<'ok' | 'closed' | 'refused' | 'failed'> =>
    new Promise((resolve) => {
      const req = get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err: NodeJS.ErrnoException) => {
          fail(`response ${err.code ?? err.message}`);
          resolve('failed');
        });
        res.on('end', () => {
          if (!res.complete) {
            fail('truncated body');
            resolve('failed');
            return;
          }
          const closed = res.headers.connection === 'close';
          if (closed) closing += 1;
          if ((res.statusCode ?? 500) >= 500) {
            fail(`status ${res.statusCode}`);
            resolve('failed');
            return;
          }
          ok += 1;
          resolve(closed ? 'closed' : 'ok');
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') {
          refused += 1;
          resolve('refused');
          return;
        }
        fail(`request ${err.code ?? err.message}`);
        resolve('failed');
      });
    });

  const loops = Array.from({ length: clients }, () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let markWarm: () => void = () => undefined;
    warmed.push(new Promise<void>((resolve) => (markWarm = resolve)));
    return (async () => {
      try {
        let outcome: Awaited<ReturnType<typeof one>> | undefined;
        while (!stopped) {
          outcome = await one(agent);
          if (outcome === 'ok' || outcome === 'closed') markWarm();
          if (outcome === 'refused') break;
        }
        // Stopped right after its connection was closed: the one attempt it was about to make.
        if (outcome === 'closed') await one(agent);
      } finally {
        markWarm();
        agent.destroy();
      }
    })();
  });

  return {
    warm: Promise.all(warmed).then(() => undefined),
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return { ok, failed, failures, refused, closing };
    },
  };
}

/**
 * One GET of `url` on `agent` (a keep-alive agent, so the request may reuse a connection): the
 * status, the `Connection` response header and the body as UTF-8 text.
 * @throws (the promise) on a socket error, e.g. a refused or reset connection.
 */
export function fetchOn(
  agent: Agent,
  url: string,
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
      );
    }).on('error', reject);
  });
}
