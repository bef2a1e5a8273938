/**
 * `pnpm demo` run as a newcomer sees it (docs/indexer.md "Demo"): the built demo, run as a
 * process on free ports, shows
 *
 * - the points loop: it joins its sending wallet as `demo.ctss` and prints its swap points
 *   growing, with its leaderboard total and rank, as its transfers are confirmed and the points
 *   and rank job runs;
 * - both chain families settling in the feed: a transfer from its Solana wallet (base58 sender,
 *   EVM recipient) appears pending and unconfirmed, then settles `success` on chain B with the
 *   relayer's receive, confirmed and attested; a transfer from chain A into its Solana wallet
 *   (EVM sender, base58 recipient) settles `success` with the receive the relayer landed on the
 *   Solana cluster; the amounts are the ones the demo printed, less the fee Iris executed;
 *
 * and SIGTERM stops it with exit code 0. Needs `pnpm build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { demoEntry } from '@ctss/devnet';
import { freePort } from '@ctss/test-support';
import { until } from './support/poll.js';

jest.setTimeout(300_000);

/** `points: demo.ctss 1,224 swap points (...); leaderboard total 1,224, rank 1 of 1`. */
const POINTS_LINE =
  /^\[demo\] points: demo\.ctss ([\d,.]+) swap points .*leaderboard total ([\d,.]+), rank (\d+|not ranked yet) of (\d+)$/;
/** A transfer from the demo's Solana wallet (signature, wallet, EVM recipient, amount, fee). */
const FROM_SOLANA_LINE =
  /^\[demo\] sent v2 transfer on Solana to chain B: (\w+) \(from (\w+) to (0x[0-9a-fA-F]{40}), amount (\d+), program fee (\d+),/;
/** A transfer from chain A into Solana (wallet, hash, amount, relayer fee, contract fee). */
const INTO_SOLANA_LINE =
  /^\[demo\] sent v2 transfer on chain A to Solana wallet (\w+): (0x[0-9a-f]{64}) \(amount (\d+), relayer fee (\d+) base units, contract fee (\d+) /;
/** A base58 Solana address (32 bytes) and a base58 signature (64 bytes). */
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

/** A transfer the test follows from the moment the demo prints it: its line and every state seen. */
interface Followed {
  readonly sent: RegExpExecArray;
  readonly states: FeedRecord[];
}

let demo: ChildProcess;
let fromSolana: Promise<Followed>;
let intoSolana: Promise<Followed>;
let exited: Promise<number | null>;
let apiUrl: string;
/** The demo's sending wallet on chain A (its `joined as` line). */
let sendingWallet: string;
const lines: string[] = [];
const listeners = new Set<() => void>();

/** The first value `check` gives, asked now and after each output line (at most `ms`). */
function when<T>(check: () => T | undefined, what: string, ms = 180_000): Promise<T> {
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listeners.delete(listener);
      reject(new Error(`no ${what} in ${ms / 1000} s:\n${lines.join('\n')}`));
    }, ms);
    const listener = () => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      listeners.delete(listener);
      resolve(value);
    };
    listeners.add(listener);
  });
}

/** The first output line (already printed or to come) that `pattern` matches. */
const line = (pattern: RegExp): Promise<RegExpExecArray> =>
  when(() => lines.map((l) => pattern.exec(l)).find((m) => m !== null), `line matching ${pattern}`);

type FeedRecord = Record<string, unknown>;

/** The record of origin transaction `hash` from the feed's lookup, or undefined (404). */
async function record(hash: string): Promise<FeedRecord | undefined> {
  const res = await fetch(`${apiUrl}/transactionsmainnet/${hash}`);
  if (res.status === 404) {
    await res.arrayBuffer();
    return undefined;
  }
  expect(res.status).toBe(200);
  return ((await res.json()) as { transactions: FeedRecord[] }).transactions[0];
}

/** Every state of the record seen, polled every 200 ms until it settles (at most 120 s). */
async function followToSettlement(hash: string): Promise<FeedRecord[]> {
  const states: FeedRecord[] = [];
  const seen = async () => {
    const r = await record(hash);
    if (r) states.push(r);
    return r;
  };
  const settled = (r: FeedRecord | undefined) =>
    r !== undefined && r.destination_tx_status !== 'pending';
  try {
    await until(seen, settled, `${hash} to settle`, { deadlineMs: 120_000, pauseMs: 200 });
  } catch (err) {
    // With the demo's output so far, which says where it stopped.
    throw new Error(`${(err as Error).message}\n${lines.join('\n')}`, { cause: err });
  }
  return states;
}

beforeAll(async () => {
  const ports: Record<string, string> = {};
  for (const name of [
    'DEMO_MONITORING_PORT',
    'DEMO_GAS_QUOTE_PORT',
    'DEMO_INDEXER_PORT',
    'DEMO_RANK_JOB_PORT',
    'DEMO_CHAIN_A_PORT',
    'DEMO_CHAIN_B_PORT',
    'DEMO_IRIS_PORT',
    'DEMO_SOLANA_PORT',
  ])
    ports[name] = String(await freePort());
  apiUrl = `http://127.0.0.1:${ports.DEMO_MONITORING_PORT}`;
  demo = spawn(process.execPath, [demoEntry()], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      ...ports,
      DEMO_INTERVAL_SECONDS: '2',
      DEMO_ATTEST_SECONDS: '3',
      DEMO_RANK_JOB_SECONDS: '2',
      DEMO_SOLANA_INTERVAL_SECONDS: '3',
      DEMO_SOLANA_FINALIZE_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise<number | null>((resolve) => demo.once('exit', (code) => resolve(code)));
  createInterface({ input: demo.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const listener of [...listeners]) listener();
  });
  createInterface({ input: demo.stderr! }).on('line', (l) => lines.push(`stderr: ${l}`));
  // Followed from the moment each is sent, so the state before its slot is final is seen.
  const follow = async (pattern: RegExp, hash: (m: RegExpExecArray) => string) => {
    const sent = await line(pattern);
    return { sent, states: await followToSettlement(hash(sent)) };
  };
  fromSolana = follow(FROM_SOLANA_LINE, (m) => m[1]!);
  intoSolana = follow(INTO_SOLANA_LINE, (m) => m[2]!);
  // Awaited by their tests; a failure is reported there.
  fromSolana.catch(() => undefined);
  intoSolana.catch(() => undefined);
  void exited.then((code) => {
    lines.push(`demo exited (${code})`);
    for (const listener of [...listeners]) listener();
  });
});

afterAll(async () => {
  if (demo.exitCode === null && demo.signalCode === null) {
    demo.kill('SIGTERM');
    await exited;
  }
});

it('when the demo runs, then it prints the demo wallet joining, then its points growing run after run with its leaderboard total and rank', async () => {
  const joined = await line(
    /^\[demo\] joined as demo\.ctss with the sending wallet (0x[0-9a-fA-F]{40})/,
  );
  sendingWallet = joined[1]!;
  const num = (s: string) => Number(s.replaceAll(',', ''));
  const printed = () =>
    lines.flatMap((l) => {
      const m = POINTS_LINE.exec(l);
      return m ? [{ swap: num(m[1]!), total: num(m[2]!), rank: `${m[3]} of ${m[4]}` }] : [];
    });
  // Two increases after the first figure: the points grow run after run.
  const points = await when(() => {
    const p = printed();
    return new Set(p.map((x) => x.swap).filter((s) => s > 0)).size >= 2 ? p : undefined;
  }, 'two growing points figures');
  // The first figure is before any transfer counted; then the points only grow, the leaderboard
  // total with them, and the rank is the one of the only user.
  expect(points[0]!.swap).toBe(0);
  for (let i = 1; i < points.length; i++)
    expect(points[i]!.swap).toBeGreaterThanOrEqual(points[i - 1]!.swap);
  const last = points.at(-1)!;
  expect(last.swap).toBeGreaterThan(0);
  expect(last.total).toBe(last.swap);
  expect(last.rank).toBe('1 of 1');
});

it('when its Solana wallet sends to chain B, then the record appears pending, then settles success on chain B, confirmed and attested', async () => {
  const { sent, states } = await fromSolana;
  const [, signature, wallet, recipient, amount, fee] = sent;
  expect(signature).toMatch(BASE58_SIGNATURE);
  expect(wallet).toMatch(BASE58_ADDRESS);
  // Seen while its slot was confirmed but not final, before Iris attested it.
  expect(states[0]).toMatchObject({
    source_domain: 5,
    destination_domain: 3,
    confirmed: false,
    destination_tx_status: 'pending',
    attested_at: null,
  });
  const received = await line(
    new RegExp(`^\\[demo\\] received on chain B: (0x[0-9a-f]{64}) \\(for ${signature}\\)$`),
  );
  const done = states.at(-1)!;
  expect(done).toMatchObject({
    source_tx_hash: signature,
    source_domain: 5,
    destination_domain: 3,
    sender: wallet,
    recipient: recipient!.toLowerCase(),
    version: 2,
    confirmed: true,
    destination_tx_status: 'success',
    destination_tx_hash: received[1],
    deposit_amount: Number(amount),
    relayer_fee: Number(fee),
  });
  expect(done.attested_at).not.toBeNull();
  // The fast fee the local Iris executes (1,500 base units) is kept from the burned amount.
  expect(done.fee_executed).toBe(1_500);
  expect(done.receive_amount).toBe(Number(amount) - Number(fee) - 1_500);
});

it('when chain A sends into its Solana wallet, then the record settles success with the receive landed on the Solana cluster', async () => {
  const { sent, states } = await intoSolana;
  const [, wallet, hash, amount, relayerFee, contractFee] = sent;
  const received = await line(
    new RegExp(`^\\[demo\\] received on Solana: (\\w+) \\(for ${hash}\\)$`),
  );
  expect(received[1]).toMatch(BASE58_SIGNATURE);
  expect(wallet).toMatch(BASE58_ADDRESS);
  const done = states.at(-1)!;
  expect(done).toMatchObject({
    source_tx_hash: hash,
    source_domain: 0,
    destination_domain: 5,
    recipient: wallet,
    version: 2,
    confirmed: true,
    destination_tx_status: 'success',
    destination_tx_hash: received[1],
    deposit_amount: Number(amount),
    fee_executed: 1_500,
    receive_amount: Number(amount) - Number(relayerFee) - Number(contractFee) - 1_500,
  });
  expect(String(done.sender).toLowerCase()).toBe(sendingWallet.toLowerCase());
  expect(done.attested_at).not.toBeNull();
});

it('when SIGTERM arrives, then the demo stops everything and exits 0', async () => {
  demo.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(
    lines.some((l) => /^\[demo\] stopped: \d+ transfers sent, \d+ received, 0 failed$/.test(l)),
  ).toBe(true);
});
