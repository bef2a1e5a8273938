/**
 * The points loop of `pnpm demo` (docs/api.md "Points"): the demo user's wallet claims a username
 * through the public joining path (`GET /users/messages`, the message signed with EIP-191
 * personal_sign, `POST /users/verify`; docs/decisions.md "D152. Joining: a username is claimed by
 * its first signed bind"), then its swap points (`GET /users?wallets=`) and its leaderboard total
 * and rank (`GET /users/leaderboard?search=`) are polled and printed whenever the points and rank
 * job (run alongside with `--every`) moves them.
 */
import type { PrivateKeyAccount } from 'viem';
import { pause } from './loop.js';

/** The reporter's wiring. */
export interface PointsReporterOptions {
  readonly monitoringUrl: string;
  /** The wallet the generator sends from (its transfers earn the points). */
  readonly account: PrivateKeyAccount;
  /** Username to claim, suffix included (USERNAME_SUFFIX of the API, `.ctss` by default). */
  readonly username: string;
  /** Milliseconds between two polls. */
  readonly intervalMs: number;
  readonly log: (line: string) => void;
}

/** A running reporter. */
export interface PointsReporter {
  /** Stops polling (and waits for the poll in progress). */
  stop(): Promise<void>;
}

/** What the demo prints: the wallet's swap points, the user's leaderboard total and rank. */
interface Standing {
  readonly swapPoints: number;
  readonly total: number;
  readonly rank: number | null;
  readonly users: number;
}

async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

/**
 * Claims `username` for `account` (the first signed bind creates the user).
 *
 * @throws Error with the API's problem when the claim is refused otherwise.
 */
async function claim(o: PointsReporterOptions): Promise<void> {
  const query = new URLSearchParams({
    username: o.username,
    address: o.account.address,
    chain_type: 'evm',
  });
  const issued = await getJson(`${o.monitoringUrl}/users/messages?${query.toString()}`);
  if (issued.status !== 200)
    throw new Error(`GET /users/messages: ${issued.status} ${JSON.stringify(issued.body)}`);
  const { message } = issued.body as { message: string };
  const signature = await o.account.signMessage({ message });
  const verified = await getJson(`${o.monitoringUrl}/users/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: o.username,
      address: o.account.address,
      chain_type: 'evm',
      type: 'bind',
      signature,
      message,
    }),
  });
  if (verified.status !== 200)
    throw new Error(`POST /users/verify: ${verified.status} ${JSON.stringify(verified.body)}`);
}

/** The wallet's and the user's standing now. */
async function standing(o: PointsReporterOptions): Promise<Standing> {
  const wallets = await getJson(
    `${o.monitoringUrl}/users?wallets=${encodeURIComponent(`${o.account.address}_evm`)}`,
  );
  const user = (
    wallets.body as {
      users?: { wallets: { chain_type: string; swap_points_mainnet: number }[] }[];
    }
  ).users?.[0];
  const swapPoints = user?.wallets.find((w) => w.chain_type === 'evm')?.swap_points_mainnet ?? 0;
  const board = await getJson(
    `${o.monitoringUrl}/users/leaderboard?network=mainnet&limit=1&search=${encodeURIComponent(o.username)}`,
  );
  const entry = (
    board.body as {
      leaderboard?: {
        username: string;
        domain_total_multiplied_points: number;
        domain_rank: number | null;
      }[];
    }
  ).leaderboard?.find((e) => e.username === o.username);
  const all = await getJson(`${o.monitoringUrl}/users/leaderboard?network=mainnet&limit=1`);
  return {
    swapPoints,
    total: entry?.domain_total_multiplied_points ?? 0,
    rank: entry?.domain_rank ?? null,
    users: (all.body as { total_count?: number }).total_count ?? 0,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * Claims the username, then prints the standing whenever it changes, every `intervalMs`.
 *
 * @throws Error when the claim is refused (the demo stops: its points loop could not be shown).
 */
export async function startPointsReporter(o: PointsReporterOptions): Promise<PointsReporter> {
  await claim(o);
  o.log(
    `joined as ${o.username} with the sending wallet ${o.account.address}: its transfers earn points once confirmed; the points and rank job runs alongside`,
  );
  const stopper = new AbortController();
  let last: Standing | undefined;
  const loop = (async () => {
    while (!stopper.signal.aborted) {
      try {
        const now = await standing(o);
        if (
          !last ||
          now.swapPoints !== last.swapPoints ||
          now.total !== last.total ||
          now.rank !== last.rank
        ) {
          o.log(
            `points: ${o.username} ${fmt(now.swapPoints)} swap points (mainnet, wallet ${o.account.address.slice(0, 10)}); leaderboard total ${fmt(now.total)}, rank ${now.rank ?? 'not ranked yet'} of ${now.users}`,
          );
          last = now;
        }
      } catch (err) {
        if (!stopper.signal.aborted) o.log(`points: ${(err as Error).message.split('\n')[0]}`);
      }
      await pause(o.intervalMs, stopper.signal);
    }
  })();
  return {
    async stop() {
      stopper.abort();
      await loop;
    },
  };
}
