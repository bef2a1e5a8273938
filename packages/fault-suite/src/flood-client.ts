/**
 * The attacker of scenario 8 (scenarios/connection-flood.ts), as its own process so its sockets
 * do not count against the suite's file limit (each process may hold `ulimit -n` descriptors, so
 * the scenario splits the flood over processes): from one client address it opens `--idle`
 * connections (in batches of 10, at most one batch per 10 ms) that never send a byte, then from another
 * `--slow` connections that send a request's headers and then drip its body one byte every
 * `--drip-ms`. It never reconnects. When every socket has closed, or at `--deadline-ms`, it prints
 * one JSON line ({@link FloodReport}) on stdout and exits. Only 127.0.0.0/8 is ever a target.
 *
 * Usage: node flood-client.js --port P --idle-from 127.0.0.2 --idle N --slow-from 127.0.0.3
 *        --slow N --drip-ms MS --path /x --deadline-ms MS
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { parseArgs } from 'node:util';

/** What happened to one group of sockets. */
export interface GroupReport {
  /** Sockets attempted. */
  readonly attempted: number;
  /** Sockets that connected. */
  readonly connected: number;
  /** Connect errors by code. */
  readonly connectErrors: Record<string, number>;
  /** The first response line each socket received, counted ("none" when it got no bytes). */
  readonly firstLines: Record<string, number>;
  /** Connected sockets the server closed within 2 s of connecting. */
  readonly closedWithin2s: number;
  /** Connected sockets that stayed open longer than 2 s (held by the server). */
  readonly heldLonger: number;
  /** Longest time a connected socket stayed open, ms. */
  readonly maxOpenMs: number;
  /** Sockets still open at the deadline (destroyed by this process). */
  readonly openAtDeadline: number;
  /** Time to open every socket of the group, ms. */
  readonly openingMs: number;
}

/** The line printed at the end. */
export interface FloodReport {
  readonly idle: GroupReport;
  readonly slow: GroupReport;
  /** The soft file limit this process ran with (`ulimit -n`, from /proc/self/limits). */
  readonly fileLimit: string;
  /** When every socket of both groups had been attempted and had connected or failed, ms (Date.now). */
  readonly openedAt: number;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'idle-from': { type: 'string', default: '127.0.0.2' },
    idle: { type: 'string', default: '0' },
    'slow-from': { type: 'string', default: '127.0.0.3' },
    slow: { type: 'string', default: '0' },
    'drip-ms': { type: 'string', default: '5000' },
    path: { type: 'string', default: '/' },
    'deadline-ms': { type: 'string', default: '60000' },
  },
  strict: true,
});

const port = Number(values.port);
const deadline = Date.now() + Number(values['deadline-ms']);
const dripMs = Number(values['drip-ms']);
/**
 * Connections opened together, and the shortest time between two batches, ms: at most 1,000
 * connections a second, spread in small batches as a flood arriving over a network is, rather
 * than in bursts of hundreds that the server must accept in one turn of its event loop.
 */
const BATCH = 10;
const BATCH_INTERVAL_MS = 10;
/** A connect that has not completed in this long counts as a connect error, ms. */
const CONNECT_TIMEOUT_MS = 5000;

/** The soft limit of open files of this process (`Max open files` in /proc/self/limits). */
function fileLimit(): string {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    return line?.split(/\s{2,}/)[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

interface Tracked {
  connectedAt?: number;
  closedAt?: number;
  firstLine?: string;
  error?: string;
  socket: net.Socket;
}

/** Opens `count` sockets from `from` in batches; `onConnect` runs for each connected one. */
async function openGroup(
  from: string,
  count: number,
  onConnect: (t: Tracked) => void,
): Promise<{ tracked: Tracked[]; openingMs: number }> {
  const started = Date.now();
  const tracked: Tracked[] = [];
  for (let i = 0; i < count && Date.now() < deadline; i += BATCH) {
    const batchStarted = Date.now();
    const batch = Array.from({ length: Math.min(BATCH, count - i) }, () => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
      const t: Tracked = { socket };
      tracked.push(t);
      socket.setNoDelay(true);
      socket.on('data', (chunk: Buffer) => {
        t.firstLine ??= chunk.toString('latin1').split('\r\n', 1)[0]!.slice(0, 40);
      });
      socket.on('close', () => (t.closedAt = Date.now()));
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          if (t.connectedAt === undefined) socket.destroy(new Error('connect timeout'));
        }, CONNECT_TIMEOUT_MS);
        socket.once('connect', () => {
          clearTimeout(timer);
          t.connectedAt = Date.now();
          onConnect(t);
          resolve();
        });
        socket.once('error', (err: NodeJS.ErrnoException) => {
          if (t.connectedAt === undefined) t.error = err.code ?? err.message;
          resolve();
        });
      });
    });
    await Promise.all(batch);
    const wait = BATCH_INTERVAL_MS - (Date.now() - batchStarted);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { tracked, openingMs: Date.now() - started };
}

function report(tracked: Tracked[], openingMs: number, now: number): GroupReport {
  const connectErrors: Record<string, number> = {};
  const firstLines: Record<string, number> = {};
  let connected = 0;
  let closedWithin2s = 0;
  let heldLonger = 0;
  let maxOpenMs = 0;
  let openAtDeadline = 0;
  for (const t of tracked) {
    if (t.error !== undefined) connectErrors[t.error] = (connectErrors[t.error] ?? 0) + 1;
    if (t.connectedAt === undefined) continue;
    connected += 1;
    const line = t.firstLine ?? 'none';
    firstLines[line] = (firstLines[line] ?? 0) + 1;
    const open = (t.closedAt ?? now) - t.connectedAt;
    maxOpenMs = Math.max(maxOpenMs, open);
    if (t.closedAt === undefined) openAtDeadline += 1;
    if (open <= 2000 && t.closedAt !== undefined) closedWithin2s += 1;
    else heldLonger += 1;
  }
  return {
    attempted: tracked.length,
    connected,
    connectErrors,
    firstLines,
    closedWithin2s,
    heldLonger,
    maxOpenMs,
    openAtDeadline,
    openingMs,
  };
}

const drips: NodeJS.Timeout[] = [];
// The slow bodies start once the idle flood is open, so they do not wait in the server's accept
// queue behind it and their time open is the server's request timeout.
const idle = await openGroup(values['idle-from'], Number(values.idle), () => undefined);
const [slow] = await Promise.all([
  openGroup(values['slow-from'], Number(values.slow), (t) => {
    t.socket.write(
      `POST ${values.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const drip = setInterval(() => {
      if (t.socket.writable) t.socket.write(' ');
    }, dripMs);
    drips.push(drip);
    t.socket.once('close', () => clearInterval(drip));
  }),
]);

const openedAt = Date.now();
const all = [...idle.tracked, ...slow.tracked];
while (Date.now() < deadline && all.some((t) => t.connectedAt !== undefined && !t.closedAt)) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const now = Date.now();
const result: FloodReport = {
  idle: report(idle.tracked, idle.openingMs, now),
  slow: report(slow.tracked, slow.openingMs, now),
  fileLimit: fileLimit(),
  openedAt,
};
for (const drip of drips) clearInterval(drip);
for (const t of all) t.socket.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
