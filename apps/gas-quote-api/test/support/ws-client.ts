/** A WebSocket test client that queues messages and lets tests await the next one or the close. */
import { WebSocket } from 'ws';

export interface TestWsClient {
  readonly ws: WebSocket;
  /** Resolves with the next message (parsed JSON), rejecting after `timeoutMs`. */
  next(timeoutMs?: number): Promise<unknown>;
  /** Every message received so far, in order. */
  readonly received: unknown[];
  /** Resolves with the close code once the connection closes. */
  readonly closed: Promise<number>;
}

/** Connects to `url` and resolves once open. @throws when the upgrade is refused. */
export async function connectWs(
  url: string,
  headers: Record<string, string> = {},
): Promise<TestWsClient> {
  const ws = new WebSocket(url, { headers });
  const received: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  let consumed = 0;
  ws.on('message', (data: Buffer) => {
    const message: unknown = JSON.parse(data.toString('utf8'));
    received.push(message);
    const waiter = waiters.shift();
    if (waiter) {
      consumed++;
      waiter(message);
    }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    received,
    closed,
    next(timeoutMs = 5000) {
      if (consumed < received.length) return Promise.resolve(received[consumed++]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no WebSocket message in time')),
          timeoutMs,
        );
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
  };
}
