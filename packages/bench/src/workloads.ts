/**
 * The benchmark workloads and their targets. HTTP workloads run with autocannon at 100
 * connections (hello-world and quotes, the throughput comparison) or 32 (monitoring reads);
 * the WebSocket fan-out is measured separately (websocket.ts).
 */
import type { BenchParams } from './dataset.js';
import type { RequestHeaders, RequestPlan, Walk } from './load.js';

/**
 * Which process serves a workload: the hello-world, an API, or the same-bytes server (the
 * hello-world program sending a page captured from the monitoring API).
 */
export type Service = 'hello' | 'same-bytes' | 'gas' | 'monitoring';

/**
 * How a workload's plan is completed against the running monitoring API just before it is
 * measured (prepare.ts): `same-bytes-page` captures a full page of the walk for the same-bytes
 * server, `replay-walk` collects the walk's pages into a rotation, `if-none-match` adds the first
 * path's ETag.
 */
export type Preparation =
  'same-bytes-page' | 'replay-walk' | 'replay-walk-warmed' | 'if-none-match';

/** Pages the compressed walk replays: about a run's worth of the plain walk at 32 connections. */
export const REPLAY_PAGES = 2_000;

/** Target class: decides which thresholds apply (see {@link TARGETS}). */
export type Group = 'baseline' | 'quote' | 'feed' | 'stats' | 'revalidation';

/** One HTTP workload. */
export interface HttpWorkload {
  readonly name: string;
  readonly description: string;
  readonly service: Service;
  readonly group: Group;
  readonly connections: number;
  readonly plan: RequestPlan;
  /** How the plan is completed against the running monitoring API first (prepare.ts). */
  readonly prepare?: Preparation;
  /** The one status every response must have; absent = any 2xx. */
  readonly expectStatus?: number;
  /**
   * The workload (measured in the same round, just before) whose req/s the ratio is taken
   * against; absent = the hello-world measured around this workload.
   */
  readonly baseline?: string;
  /**
   * Environment of a monitoring API started for this workload alone (over the one of the run);
   * absent = the API the other monitoring workloads share, caching off.
   */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Thresholds of a workload; undefined = no such target. Latencies ms, RSS MB; `minFloorRatio` is
 * the least req/s over its database floor's statements/s (db-floor.ts).
 */
interface Target {
  readonly minRatio?: number;
  readonly minFloorRatio?: number;
  readonly maxP99?: number;
  readonly maxRssMb?: number;
}

/**
 * Thresholds per group. The monitoring API (feed, stats, revalidation) must stay under 200 MB of
 * RSS (docs/decisions.md "D240. The monitoring API's heap limit follows its memory limit").
 */
const TARGETS: Record<Group, Target> = {
  baseline: {},
  quote: { minRatio: 0.7, maxRssMb: 300 },
  feed: { minRatio: 0.35, maxP99: 25, maxRssMb: 200 },
  stats: { maxP99: 15, maxRssMb: 200 },
  revalidation: { minRatio: 0.7, maxRssMb: 200 },
};

/**
 * Workloads whose thresholds replace their group's (docs/decisions.md "D162. The database floor
 * in the benchmark"): the uncached 100-record window page is judged against the statements it
 * cannot avoid (the API adds at most two thirds of what PostgreSQL spends), the closed-window
 * walk against the same bytes served from memory.
 */
const WORKLOAD_TARGETS: Readonly<Record<string, Target>> = {
  'feed-time-window': { minFloorRatio: 0.6, maxP99: 40, maxRssMb: 200 },
  'feed-time-window-closed': { minRatio: 0.5, maxP99: 40, maxRssMb: 200 },
};

/** The thresholds of the workload `name` of `group`. */
export function targetOf(name: string, group: Group): Target {
  return WORKLOAD_TARGETS[name] ?? TARGETS[group];
}

/** WebSocket fan-out target: publish to last of 5,000 clients, ms. */
export const WS_FANOUT_TARGET_MS = 250;
/** At 10x the rows, feed and stats figures stay within this factor of the 1M figures. */
export const SCALING_FACTOR_TARGET = 1.5;
/** The dataset size the scaling comparison is made against. */
export const REFERENCE_TRANSACTIONS = 1_000_000;

const paths = (list: readonly string[]): RequestPlan => ({ kind: 'paths', paths: list });
const q = (path: string, params: Record<string, string | number | boolean>): string =>
  `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

/** EVM routes of CCTP v2 (docs/architecture.md "Chains"): origin -> destination. */
const EVM_ROUTES: ReadonlyArray<readonly [number, number]> = [
  [0, 3],
  [3, 0],
  [6, 2],
  [2, 6],
  [0, 6],
  [7, 3],
  [1, 6],
  [10, 0],
];

/** The keyset fields of a feed page. */
interface PageTail {
  next_cursor?: string;
  has_more?: boolean;
}

/**
 * Reads `next_cursor` and `has_more` of a feed page (docs/api.md "Pagination": `{"transactions":[...],"next_cursor":
 * ...,"has_more":...}`) from the text after the last `"next_cursor":` key. Parsing the whole 70 KB
 * page cost the load generator more CPU per page than the API's hello-world costs per request, and
 * the walk needs only these two fields. The match is exact: inside a JSON string a quote is always
 * escaped, so `"next_cursor":` with bare quotes can only be a key, and the records come before it.
 * A body without the key is parsed whole.
 */
export function pageTail(body: string): PageTail {
  const at = body.lastIndexOf('"next_cursor":');
  return JSON.parse(at < 0 ? body : `{${body.slice(at)}`) as PageTail;
}

/**
 * An aggregator's walk: a one-hour window, 100 records a page, following next_cursor to the end;
 * the n-th walk takes window n (modulo their count).
 * @param headers sent with every page request (e.g. Accept-Encoding)
 */
export function timeWindowWalk(windows: BenchParams['windows'], headers?: RequestHeaders): Walk {
  const base = (i: number) => {
    const [start, end] = windows[i % windows.length]!;
    return q('/transactionsmainnet', { start_time: start, end_time: end, limit: 100 });
  };
  return {
    kind: 'walk',
    ...(headers && { headers }),
    first: base,
    next(path, status, body) {
      if (status !== 200) return undefined;
      const page = pageTail(body);
      if (!page.has_more || !page.next_cursor) return undefined;
      const url = new URL(path, 'http://x');
      url.searchParams.set('cursor', page.next_cursor);
      return `${url.pathname}${url.search}`;
    },
  };
}

/**
 * The hello-world at the monitoring workloads' 32 connections. Not a ratio baseline: its p99 is
 * what Express itself achieves on the host at that concurrency, the floor under every p99 target.
 */
export const HELLO_WORLD_32 = 'hello-world-32';

/**
 * Express serving, from memory, the bytes of one 100-record time-window page: the floor for a
 * page of that size on the host, which the time-window walks are judged against.
 */
const SAME_BYTES = 'same-bytes-window-page';

/**
 * The time-window walk on windows the indexer's watermark has passed: every page is kept and
 * answered as immutable (apps/monitoring-api transactions/closed-windows.ts).
 */
export const CLOSED_WINDOW_WALK = 'feed-time-window-closed';

/**
 * The closed-window walk asked for with `Accept-Encoding: gzip`: the kept compressed copies
 * (closed-windows.ts), each made by the preparation's own request of the page in that coding.
 */
export const CLOSED_WINDOW_WALK_GZIP = 'feed-time-window-closed-gzip';

/** Workload names in report order (the WebSocket fan-out is `ws-fanout`). */
export const WORKLOAD_ORDER: readonly string[] = [
  'hello-world',
  'hello-world-32',
  SAME_BYTES,
  'quote-ecdsa',
  'quote-ed25519',
  'token-prices',
  'feed-first-page',
  'feed-first-page-304',
  'feed-deep-cursor',
  'feed-sender',
  'feed-lookup',
  'feed-time-window',
  'feed-time-window-gzip',
  CLOSED_WINDOW_WALK,
  CLOSED_WINDOW_WALK_GZIP,
  'leaderboard',
  'leaderboard-search',
  'stats-volumes',
  'stats-volumes-hourly',
  'stats-volumes-daily',
  'stats-fees-hourly',
  'stats-fees-daily',
  'stats-transactions',
  'stats-chain-shares',
  'stats-mainnet-wallets',
  'stats-wallets',
];

/**
 * Parameters without a benchmark database: enough to name every workload (main.ts lists them
 * before the dataset is loaded) and to run the gas quote API's workloads, which read none of them
 * (experiments).
 */
export const PLACEHOLDER_PARAMS: BenchParams = {
  deepCursors: [''],
  senders: [''],
  lookups: [''],
  windows: [[0, 1]],
  searches: [''],
  mainnetRows: 0,
};

/** Builds every HTTP workload from the picked parameters. */
export function httpWorkloads(p: BenchParams): HttpWorkload[] {
  const ecdsa = EVM_ROUTES.flatMap(([from, to]) =>
    [false, true].map((isNative) =>
      q('/getEcdsaSig_native', { localDomain: from, destinationDomain: to, isV2: true, isNative }),
    ),
  );
  const ed25519 = [0, 3, 6].flatMap((to) =>
    [false, true].map((isNative) =>
      q('/getEd25519Sig_native', { localDomain: 5, destinationDomain: to, isNative, version: 2 }),
    ),
  );
  const stats: Array<[string, string]> = [
    ['stats-volumes', '/stats/mainnet/volumes'],
    ['stats-volumes-hourly', '/stats/mainnet/volumes/hourly'],
    ['stats-volumes-daily', '/stats/mainnet/volumes/daily'],
    ['stats-fees-hourly', '/stats/mainnet/fees?period=hourly'],
    ['stats-fees-daily', '/stats/mainnet/fees?period=daily'],
    ['stats-transactions', '/stats/mainnet/transactions'],
    ['stats-chain-shares', '/stats/mainnet/chain-shares'],
    ['stats-mainnet-wallets', '/stats/mainnet/wallets'],
    ['stats-wallets', '/stats/wallets'],
  ];
  return [
    {
      name: 'hello-world',
      description: 'Express 5 `GET /` -> "Hello World!"',
      service: 'hello',
      group: 'baseline',
      connections: 100,
      plan: paths(['/']),
    },
    {
      name: HELLO_WORLD_32,
      description:
        'Express 5 `GET /` at 32 connections: the latency floor of this host for the 32-connection p99 targets',
      service: 'hello',
      group: 'baseline',
      connections: 32,
      plan: paths(['/']),
    },
    {
      name: 'quote-ecdsa',
      description: `ECDSA quote, ${ecdsa.length} EVM v2 routes x isNative`,
      service: 'gas',
      group: 'quote',
      connections: 100,
      plan: paths(ecdsa),
    },
    {
      name: 'quote-ed25519',
      description: `Ed25519 quote, Solana -> 3 EVM chains x isNative, version=2`,
      service: 'gas',
      group: 'quote',
      connections: 100,
      plan: paths(ed25519),
    },
    {
      name: 'token-prices',
      description: '`GET /tokenPrices`',
      service: 'gas',
      group: 'quote',
      connections: 100,
      plan: paths(['/tokenPrices']),
    },
    {
      name: 'feed-first-page',
      description: '`/transactionsmainnet` first page (limit 10)',
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(['/transactionsmainnet']),
    },
    {
      name: 'feed-first-page-304',
      description:
        'a client polling `/transactionsmainnet` with `If-None-Match` set to the ETag of its first answer: every answer must be 304',
      service: 'monitoring',
      group: 'revalidation',
      connections: 32,
      plan: paths(['/transactionsmainnet']),
      prepare: 'if-none-match',
      expectStatus: 304,
      // A poller meets the first-page cache as deployed (docs/decisions.md D62).
      env: { FEED_FIRST_PAGE_CACHE_SECONDS: '5' },
    },
    {
      name: 'feed-deep-cursor',
      description: `cursor pages in the older half of the feed (${p.deepCursors.length} cursors)`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(p.deepCursors.map((cursor) => q('/transactionsmainnet', { cursor, limit: 10 }))),
    },
    {
      name: 'feed-sender',
      description: `senders filter, one sender (${p.senders.length} senders)`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(p.senders.map((senders) => q('/transactionsmainnet', { senders }))),
    },
    {
      name: 'feed-lookup',
      description: `addr_or_tx_hash: senders, recipients, source and destination hashes (${p.lookups.length})`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(p.lookups.map((v) => q('/transactionsmainnet', { addr_or_tx_hash: v }))),
    },
    {
      name: SAME_BYTES,
      description:
        'Express 5 sending from memory the bytes of one 100-record `feed-time-window` page, fetched from the monitoring API just before (no ETag, no compression)',
      service: 'same-bytes',
      group: 'baseline',
      connections: 32,
      plan: timeWindowWalk(p.windows),
      prepare: 'same-bytes-page',
    },
    {
      name: 'feed-time-window',
      description:
        'aggregator walk: one-hour start_time/end_time window, limit 100, following next_cursor; no Accept-Encoding (uncompressed)',
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: timeWindowWalk(p.windows),
      baseline: SAME_BYTES,
    },
    {
      name: 'feed-time-window-gzip',
      description: `the pages of the time-window walk (its first ${REPLAY_PAGES.toLocaleString('en-US')}, collected just before) requested with \`Accept-Encoding: gzip\``,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: timeWindowWalk(p.windows, { 'accept-encoding': 'gzip' }),
      prepare: 'replay-walk',
      baseline: SAME_BYTES,
    },
    {
      name: CLOSED_WINDOW_WALK,
      description: `the pages of the time-window walk (its first ${REPLAY_PAGES.toLocaleString('en-US')}, collected just before, which stores them) on windows below the watermark (every chain's cursor confirmed past them): closed, immutable, served from the kept copies; no Accept-Encoding`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: timeWindowWalk(p.windows),
      prepare: 'replay-walk',
      baseline: SAME_BYTES,
      env: { FEED_INDEXED_CHAINS: p.indexedChains ?? '' },
    },
    {
      name: CLOSED_WINDOW_WALK_GZIP,
      description: `the same closed pages requested with \`Accept-Encoding: gzip\`: each sent as its kept compressed copy, made when the preparation asked for it in gzip once`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: timeWindowWalk(p.windows, { 'accept-encoding': 'gzip' }),
      prepare: 'replay-walk-warmed',
      baseline: SAME_BYTES,
      env: { FEED_INDEXED_CHAINS: p.indexedChains ?? '' },
    },
    ...stats.map(([name, path]): HttpWorkload => ({
      name,
      description: `\`${path}\`, caching off`,
      service: 'monitoring',
      group: 'stats',
      connections: 32,
      plan: paths([path]),
    })),
    {
      name: 'leaderboard',
      description: '`/users/leaderboard` first page (limit 50)',
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(['/users/leaderboard']),
    },
    {
      name: 'leaderboard-search',
      description: `\`/users/leaderboard?search=\` substrings of usernames (${p.searches.length})`,
      service: 'monitoring',
      group: 'feed',
      connections: 32,
      plan: paths(p.searches.map((search) => q('/users/leaderboard', { search }))),
    },
  ];
}
