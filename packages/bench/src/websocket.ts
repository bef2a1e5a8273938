/**
 * WebSocket fan-out: N `ws` clients on /subscribe each wait for the `fees` and `tokenPrices`
 * snapshot (docs/api.md, the `/subscribe` messages), then the harness publishes one update and
 * times publish -> last client received, several rounds. Clients live in this process (the load
 * generator is on the same machine).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

/** Options of {@link measureFanout}. */
export interface FanoutOptions {
  /** e.g. ws://127.0.0.1:3001/subscribe */
  readonly url: string;
  readonly clients: number;
  /** Publishes one update (resolves once the publish command returned). */
  readonly publish: () => Promise<void>;
  readonly rounds: number;
  readonly log: (line: string) => void;
  /**
   * Called once every client is connected and has its snapshot, with the snapshot's messages as
   * the first client received them (message `type` -> JSON text); the fan-out rounds follow.
   */
  readonly onConnected?: (snapshot: ReadonlyMap<string, string>) => Promise<void>;
}

/** One publish round. Times in ms from just before the publish call. */
interface FanoutRound {
  readonly received: number;
  readonly firstMs: number;
  readonly p50Ms: number;
  readonly lastMs: number;
}

/** Result of {@link measureFanout}. */
export interface FanoutResult {
  readonly requested: number;
  readonly connected: number;
  /** Seconds to connect every client and deliver every snapshot. */
  readonly connectSeconds: number;
  readonly rounds: FanoutRound[];
  /** Median over rounds of publish -> last client. */
  readonly medianLastMs: number;
  readonly maxLastMs: number;
}

interface Client {
  ws: WebSocket;
  /** Snapshot messages received so far: message `type` -> JSON text. */
  snapshot: Map<string, string>;
  receivedAt: number | undefined;
}

const CONNECT_BATCH = 200;
const ROUND_TIMEOUT_MS = 15_000;

function connect(
  url: string,
  onMessage: (client: Client, data: WebSocket.RawData) => void,
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client: Client = {
      ws: new WebSocket(url, { perMessageDeflate: false }),
      snapshot: new Map(),
      receivedAt: undefined,
    };
    const timer = setTimeout(() => reject(new Error('snapshot not received within 30 s')), 30_000);
    client.ws.on('message', (data) => {
      onMessage(client, data);
      if (client.snapshot.size === 2) {
        clearTimeout(timer);
        resolve(client);
      }
    });
    client.ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Connects the clients, runs the publish rounds, closes the clients. */
export async function measureFanout(opts: FanoutOptions): Promise<FanoutResult> {
  let roundStart: number | undefined;
  let receivedThisRound = 0;
  let roundDone: (() => void) | undefined;
  let expected = 0;
  const onMessage = (client: Client, data: WebSocket.RawData): void => {
    if (client.snapshot.size < 2) {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      const type = (JSON.parse(text) as { type?: unknown }).type;
      if (type === 'fees' || type === 'tokenPrices') client.snapshot.set(type, text);
      return;
    }
    if (roundStart === undefined || client.receivedAt !== undefined) return;
    client.receivedAt = performance.now();
    receivedThisRound++;
    if (receivedThisRound === expected) roundDone?.();
  };

  const started = performance.now();
  const clients: Client[] = [];
  let failures = 0;
  let firstError: unknown;
  for (let i = 0; i < opts.clients; i += CONNECT_BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(CONNECT_BATCH, opts.clients - i) }, () =>
        connect(opts.url, onMessage),
      ),
    );
    for (const r of batch) {
      if (r.status === 'fulfilled') clients.push(r.value);
      else {
        failures++;
        firstError ??= r.reason;
      }
    }
  }
  const connectSeconds = (performance.now() - started) / 1000;
  opts.log(
    `ws: ${clients.length}/${opts.clients} clients connected with snapshot in ${connectSeconds.toFixed(1)} s${failures ? ` (${failures} failed: ${String(firstError)})` : ''}`,
  );
  if (clients.length === 0)
    throw new Error(`no WebSocket client could connect: ${String(firstError)}`);
  await opts.onConnected?.(clients[0]!.snapshot);

  const rounds: FanoutRound[] = [];
  try {
    for (let r = 0; r < opts.rounds; r++) {
      await sleep(500);
      for (const c of clients) c.receivedAt = undefined;
      receivedThisRound = 0;
      expected = clients.length;
      const done = new Promise<void>((resolve) => (roundDone = resolve));
      roundStart = performance.now();
      await opts.publish();
      await Promise.race([done, sleep(ROUND_TIMEOUT_MS)]);
      const start = roundStart;
      roundStart = undefined;
      const times = clients
        .map((c) => c.receivedAt)
        .filter((t): t is number => t !== undefined)
        .map((t) => t - start)
        .sort((a, b) => a - b);
      rounds.push({
        received: times.length,
        firstMs: times[0] ?? NaN,
        p50Ms: times[Math.floor(times.length / 2)] ?? NaN,
        lastMs: times.length === clients.length ? times[times.length - 1]! : Infinity,
      });
      opts.log(
        `ws: round ${r + 1}: ${times.length}/${clients.length} received, last after ${rounds[rounds.length - 1]!.lastMs.toFixed(1)} ms`,
      );
    }
  } finally {
    for (const c of clients) c.ws.terminate();
  }
  const lasts = rounds.map((r) => r.lastMs).sort((a, b) => a - b);
  return {
    requested: opts.clients,
    connected: clients.length,
    connectSeconds,
    rounds,
    medianLastMs: lasts[Math.floor(lasts.length / 2)] ?? NaN,
    maxLastMs: lasts[lasts.length - 1] ?? NaN,
  };
}
