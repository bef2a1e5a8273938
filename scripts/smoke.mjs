#!/usr/bin/env node
/**
 * Smoke run of the README's two commands as a newcomer runs them (docs/operations.md "Smoke run
 * of the README's commands"): `pnpm start` and `pnpm demo` from the repository root with no
 * DATABASE_URL, REDIS_URL or any other setting, after `pnpm build`. For each: wait until ready; request the feed, the
 * statistics, the leaderboard and both DefiLlama routes (every one must answer 200); stay idle
 * longer than every idle timeout of the stack; request them again; repeat for `--minutes`. The
 * demo must also settle a transfer (`success` in the feed) and count it in the statistics after
 * the pause. Fails on any 5xx answer, any error-level log line (pino level >= 50), any 5xx in a
 * request log line and any failed demo transfer.
 *
 * Idle timeouts it outlasts (default pause 45 s): knex/tarn pool `idleTimeoutMillis` 30 s (the
 * APIs' and the indexer's pools), Node's HTTP server `keepAliveTimeout` 5 s, undici's client
 * keep-alive 4 s; pglite-socket's `idleTimeout` is 0 (off).
 *
 * Each command runs in its own process group, stopped by its PID (SIGTERM to the group, SIGKILL
 * after 20 s); the whole run is bounded by `--deadline` seconds.
 *
 * Usage: node scripts/smoke.mjs [--only start|demo] [--pause 45] [--minutes 0] [--deadline 1500]
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    pause: { type: 'string', default: '45' },
    minutes: { type: 'string', default: '0' },
    deadline: { type: 'string', default: '1500' },
  },
  strict: true,
  allowPositionals: false,
});
const PAUSE_MS = Number(flags.pause) * 1000;
const SOAK_MS = Number(flags.minutes) * 60_000;
const DEADLINE_MS = Number(flags.deadline) * 1000;
if (![PAUSE_MS, SOAK_MS, DEADLINE_MS].every((n) => Number.isFinite(n) && n >= 0)) {
  console.error('smoke: --pause, --minutes and --deadline take non-negative numbers');
  process.exit(2);
}
if (flags.only !== undefined && !['start', 'demo'].includes(flags.only)) {
  console.error('smoke: --only takes start or demo');
  process.exit(2);
}

const MON = 'http://127.0.0.1:3000';
const GAS = 'http://127.0.0.1:3001';
const HOUR = 3_600;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (line) => process.stdout.write(`[smoke] ${line}\n`);

/** The paths every round requests (DefiLlama windows: the last two whole hours). */
function paths() {
  const to = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
  const from = to - 2 * HOUR;
  return [
    `${MON}/transactionsmainnet?limit=10`,
    `${MON}/stats/mainnet/transactions`,
    `${MON}/stats/mainnet/volumes`,
    `${MON}/stats/mainnet/chain-shares`,
    `${MON}/stats/mainnet/wallets`,
    `${MON}/users/leaderboard`,
    `${MON}/defillama/fees?from_timestamp=${from}&to_timestamp=${to}`,
    `${MON}/defillama/bridge/volumes?from_timestamp=${from}&to_timestamp=${to}`,
    `${GAS}/health`,
  ];
}

/** Sends `sig` to `pid` (negative: a process group); false when there is no such process. */
function signal(pid, sig) {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` still runs (a zombie counts as gone). */
function alive(pid) {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

/** Every descendant PID of `root`, read from /proc (Linux). */
function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(
        readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1],
      );
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const pid of children.get(queue.shift()) ?? []) {
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

/** A command run in its own process group, its output in a log file and scanned line by line. */
class Run {
  constructor(name, args, logDir) {
    this.name = name;
    this.problems = [];
    /** Statuses of the request log lines, and of this script's own requests. */
    this.logged = new Map();
    this.requested = new Map();
    this.lines = [];
    this.logPath = join(logDir, `${name}.log`);
    const log = createWriteStream(this.logPath);
    const env = { ...process.env };
    // Exactly as the README runs it: nothing set.
    for (const key of Object.keys(env)) {
      if (/^(DATABASE_|REDIS_|PORT$|LOG_LEVEL$|NODE_ENV$|DEMO_)/.test(key)) delete env[key];
    }
    this.child = spawn('pnpm', args, {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((r) => this.child.once('exit', (code, signal) => r(code ?? signal)));
    for (const stream of [this.child.stdout, this.child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        log.write(`${line}\n`);
        this.lines.push(line);
        this.scan(line);
      });
    }
  }

  /** Records an error-level log line, a 5xx request log line or a failed demo transfer. */
  scan(line) {
    const start = line.indexOf('{');
    if (start >= 0) {
      let entry;
      try {
        entry = JSON.parse(line.slice(start));
      } catch {
        entry = undefined;
      }
      if (entry && typeof entry === 'object') {
        const status = entry.res?.statusCode;
        if (typeof status === 'number') this.logged.set(status, (this.logged.get(status) ?? 0) + 1);
        if (typeof entry.level === 'number' && entry.level >= 50) {
          this.problems.push(`error-level log line: ${line.slice(0, 400)}`);
        } else if (typeof status === 'number' && status >= 500) {
          this.problems.push(`${status} in the request log: ${line.slice(0, 400)}`);
        }
      }
    }
    if (/\[demo\] (transfer failed|receive of .* failed)/.test(line)) {
      this.problems.push(`demo transfer failed: ${line.slice(0, 400)}`);
    }
  }

  /** GETs `url`; a 5xx or a network error is a problem. Returns the status and parsed body. */
  async get(url) {
    let status = 0;
    let body;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      status = res.status;
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } catch (err) {
      this.problems.push(`GET ${url}: ${err.message}`);
    }
    this.requested.set(status, (this.requested.get(status) ?? 0) + 1);
    if (status >= 500) this.problems.push(`GET ${url} answered ${status}`);
    return { status, body };
  }

  /** Requests every path; each must answer 200. */
  async round(label) {
    const statuses = [];
    for (const url of paths()) {
      const { status } = await this.get(url);
      statuses.push(status);
      if (status !== 200) this.problems.push(`${label}: GET ${url} answered ${status}, not 200`);
    }
    say(`${this.name} ${label}: ${statuses.join(' ')}`);
  }

  /** Polls `url` until it answers 200 (at most `ms`). */
  async waitReady(url, ms) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited early`);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(500);
    }
    throw new Error(`${this.name}: ${url} not ready within ${ms / 1000} s`);
  }

  /**
   * Stops the command and everything it started, by PID: the descendants are listed first
   * (turbo runs each task in a process group of its own), SIGTERM goes to the command's process
   * group and to each descendant, and whatever still runs 20 s later gets SIGKILL.
   */
  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const pids = [this.child.pid, ...descendants(this.child.pid)];
    signal(-this.child.pid, 'SIGTERM');
    for (const pid of pids) signal(pid, 'SIGTERM');
    const until = Date.now() + 20_000;
    while (pids.some(alive) && Date.now() < until) await sleep(250);
    const stuck = pids.filter(alive);
    if (stuck.length > 0) {
      this.problems.push(`still running 20 s after SIGTERM, killed: ${stuck.join(' ')}`);
      for (const pid of stuck) signal(pid, 'SIGKILL');
    }
    signal(-this.child.pid, 'SIGKILL');
    await this.exited;
  }

  summary() {
    const fmt = (m) =>
      [...m]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}:${n}`)
        .join(' ') || 'none';
    return `${this.name}: own requests ${fmt(this.requested)}; request log ${fmt(this.logged)}; problems ${this.problems.length}; log ${this.logPath}`;
  }
}

/** Rounds separated by idle pauses: at least one pause, and until `SOAK_MS` has passed. */
async function rounds(run, between) {
  const t0 = Date.now();
  await run.round('before the pause');
  let n = 0;
  do {
    n += 1;
    say(`${run.name}: idle for ${PAUSE_MS / 1000} s`);
    await sleep(PAUSE_MS);
    await run.round(`after pause ${n}`);
    await between?.();
  } while (Date.now() - t0 + PAUSE_MS < SOAK_MS);
}

async function smokeStart(logDir) {
  const run = new Run('start', ['start'], logDir);
  runs.push(run);
  try {
    await run.waitReady(`${MON}/ready`, 600_000);
    await run.waitReady(`${GAS}/ready`, 120_000);
    say('pnpm start is ready');
    await rounds(run);
  } finally {
    await run.stop();
  }
}

/** The newest `success` demo transfer in the feed, or undefined. */
async function settled(run) {
  const { body } = await run.get(`${MON}/transactionsmainnet?limit=1&status=success`);
  return body?.transactions?.[0];
}

async function total(run) {
  const { body } = await run.get(`${MON}/stats/mainnet/transactions`);
  return body?.total_transactions;
}

async function smokeDemo(logDir) {
  const run = new Run('demo', ['demo'], logDir);
  runs.push(run);
  try {
    await run.waitReady(`${MON}/ready`, 600_000);
    await run.waitReady('http://127.0.0.1:3010/ready', 120_000);
    say('pnpm demo is ready');
    // A first transfer settles (sent every 5 s, attested after a short delay).
    const until = Date.now() + 120_000;
    let first;
    while (!(first = await settled(run)) && Date.now() < until) await sleep(2_000);
    if (!first) throw new Error('no demo transfer settled within 120 s');
    let before = await total(run);
    say(`demo: first transfer settled (${first.source_tx_hash}); ${before} counted`);
    await rounds(run, async () => {
      // Transfers sent while the API was idle settle and are counted once the cache (2 s) expires.
      const latest = await settled(run);
      await sleep(3_000);
      const after = await total(run);
      if (!latest || latest.source_tx_hash === first.source_tx_hash) {
        run.problems.push('no new demo transfer settled during the pause');
      }
      if (!(typeof after === 'number' && after > before)) {
        run.problems.push(`statistics did not count the new transfers (${before} -> ${after})`);
      }
      say(`demo: newest settled ${latest?.source_tx_hash}; counted ${before} -> ${after}`);
      first = latest ?? first;
      before = after;
    });
  } finally {
    await run.stop();
  }
}

const runs = [];
const deadline = setTimeout(async () => {
  console.error(`smoke: over the ${DEADLINE_MS / 1000} s deadline; stopping`);
  await Promise.allSettled(runs.map((r) => r.stop()));
  process.exit(1);
}, DEADLINE_MS);

let failed = false;
const logDir = await mkdtemp(join(tmpdir(), 'ctss-smoke-'));
for (const [name, smoke] of [
  ['start', smokeStart],
  ['demo', smokeDemo],
]) {
  if (flags.only !== undefined && flags.only !== name) continue;
  const t0 = Date.now();
  try {
    await smoke(logDir);
  } catch (err) {
    failed = true;
    console.error(`smoke: pnpm ${name}: ${err.message}`);
  }
  const run = runs.at(-1);
  say(`pnpm ${name} done in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${run?.summary()}`);
  for (const problem of run?.problems ?? []) console.error(`smoke: pnpm ${name}: ${problem}`);
  if (run && run.problems.length > 0) {
    failed = true;
    console.error(`smoke: last lines of pnpm ${name}:\n${run.lines.slice(-30).join('\n')}`);
  }
}
clearTimeout(deadline);
process.exit(failed ? 1 : 0);
