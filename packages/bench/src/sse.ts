/**
 * Live-feed fan-out (`sse-fanout`): N Server-Sent Events clients on the monitoring API's
 * `GET /transactionsmainnet/stream` (docs/api.md "Live feed (Server-Sent Events)"), then rounds
 * of one record inserted into PostgreSQL (one autocommit statement), each timed from just before
 * the INSERT is sent to the moment the LAST client has received its event (change-log trigger at
 * commit, NOTIFY, the API's read of the log, the write to every stream, the client's parse).
 * Clients live in this process (the load generator is on the same machine).
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

/** Options of {@link measureSseFanout}. */
export interface SseFanoutOptions {
  /** e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string;
  /** The API's database, where the records are inserted. */
  readonly databaseUrl: string;
  readonly clients: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

/** Result of {@link measureSseFanout}; times in ms. */
export interface SseFanoutResult {
  readonly requested: number;
  readonly connected: number;
  readonly connectSeconds: number;
  readonly rounds: number;
  /** Insert sent -> last client received: percentiles over the rounds. */
  readonly p50LastMs: number;
  readonly p99LastMs: number;
  readonly maxLastMs: number;
  /** Insert sent -> first client received, median over the rounds. */
  readonly p50FirstMs: number;
  /** Insert sent -> the INSERT's commit acknowledged to the writer, median. */
  readonly p50CommitMs: number;
}

const ROUND_TIMEOUT_MS = 15_000;
const CONNECT_BATCH = 100;

/** The value at quantile `q` (0..1) of sorted `values` (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** One open stream: calls `onEvent` for each complete event (any `data:` line). */
function openStream(url: string, onEvent: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        res.resume();
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('\ndata: ') || block.startsWith('data: ')) onEvent();
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

/** A unique 0x hex string of 64 digits. */
const hash = (round: number) =>
  `0x${Date.now().toString(16)}${round.toString(16).padStart(8, '0')}`.padEnd(66, 'b');

/** Connects the clients, runs the insert rounds, closes the clients. */
export async function measureSseFanout(opts: SseFanoutOptions): Promise<SseFanoutResult> {
  let expected = 0;
  let received = 0;
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  let done: (() => void) | undefined;
  const onEvent = (): void => {
    const now = performance.now();
    received += 1;
    firstAt ??= now;
    if (received === expected) {
      lastAt = now;
      done?.();
    }
  };
  const started = performance.now();
  const closers: (() => void)[] = [];
  let failures = 0;
  let firstError: unknown;
  const url = `${opts.baseUrl}/transactionsmainnet/stream?domain=6`;
  for (let i = 0; i < opts.clients; i += CONNECT_BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(CONNECT_BATCH, opts.clients - i) }, () =>
        openStream(url, onEvent),
      ),
    );
    for (const r of batch) {
      if (r.status === 'fulfilled') closers.push(r.value);
      else {
        failures += 1;
        firstError ??= r.reason;
      }
    }
  }
  const connectSeconds = (performance.now() - started) / 1000;
  opts.log(
    `sse: ${closers.length}/${opts.clients} streams open in ${connectSeconds.toFixed(1)} s${failures ? ` (${failures} failed: ${String(firstError)})` : ''}`,
  );
  if (closers.length === 0) throw new Error(`no stream could open: ${String(firstError)}`);
  const writer = new pg.Client({ connectionString: opts.databaseUrl });
  await writer.connect();
  const last: number[] = [];
  const first: number[] = [];
  const commit: number[] = [];
  try {
    for (let round = 0; round < opts.rounds; round += 1) {
      expected = closers.length;
      received = 0;
      firstAt = undefined;
      lastAt = undefined;
      const all = new Promise<void>((resolve, reject) => {
        done = resolve;
        setTimeout(
          () => reject(new Error(`round ${round}: ${received}/${expected} received`)),
          ROUND_TIMEOUT_MS,
        ).unref();
      });
      const t0 = performance.now();
      await writer.query(
        `insert into transactions (network, source_tx_hash, source_domain, destination_domain,
           sender, recipient, deposit_amount, receive_amount)
         values ('mainnet', $1, 6, 3, '0x00000000000000000000000000000000000000aa',
           '0x00000000000000000000000000000000000000bb', 1000000, 990000)`,
        [hash(round)],
      );
      commit.push(performance.now() - t0);
      await all;
      last.push(lastAt! - t0);
      first.push(firstAt! - t0);
    }
  } finally {
    await writer.end();
    for (const close of closers) close();
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const lastSorted = sorted(last);
  return {
    requested: opts.clients,
    connected: closers.length,
    connectSeconds,
    rounds: last.length,
    p50LastMs: quantile(lastSorted, 0.5),
    p99LastMs: quantile(lastSorted, 0.99),
    maxLastMs: lastSorted[lastSorted.length - 1]!,
    p50FirstMs: quantile(sorted(first), 0.5),
    p50CommitMs: quantile(sorted(commit), 0.5),
  };
}
