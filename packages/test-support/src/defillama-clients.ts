/**
 * Faithful replays of DefiLlama's two clients of the Monitoring API (docs/api.md "DefiLlama
 * adapters" and "Rate limits"), with their real timestamps, pacing, concurrency and retries, so a
 * test or a run against `pnpm start` can show every call answered. What was read:
 *
 * - Fee and bridge-volume runner, `DefiLlama/dimension-adapters`:
 *   `adapters/utils/runAdapter.ts` (commit 59a408e0c29b133caed7be5b4dc61f25eb997329),
 *   `getOptionsObject`: `toTimestamp = timestamp - 1`, `fromTimestamp = toTimestamp - windowSize`
 *   (windowSize = ONE_DAY_IN_SECONDS = 86400), `startTimestamp = fromTimestamp`,
 *   `endTimestamp = toTimestamp + 1`; so a run for `T` asks for `from_timestamp = T - 1 - 86400`,
 *   `to_timestamp = T`. `fees/cashmere/index.ts` (83ae11644e654cdd39f7de549c30b337aa2970d3) calls
 *   `GET /defillama/fees?from_timestamp=${startTimestamp}&to_timestamp=${endTimestamp}` and
 *   `bridge-aggregators/cashmere/index.ts` (94a3277b9f7efbfa24d8517afcd2abcb2b276e1b)
 *   `GET /defillama/bridge/volumes` with the same two parameters, both through
 *   `utils/fetchURL.ts` (1ba2d5a193f2c07ab8a4c9b5d1202b2c6841500a): axios GET, any non-2xx or an
 *   empty body throws, retried at once up to 3 times (4 attempts), then the run fails.
 *   `cli/testAdapter.ts` (5f79e80ec062739f0a898906fc77596c22645807) runs a version-2 adapter with
 *   `T = now - 2.5 h` (`getTimestamp30MinutesAgo`), any second; the daily job passes a UTC
 *   midnight.
 * - Bridge transfers, `DefiLlama/bridges-server`: `src/handlers/runCashmere.ts`
 *   (5fa90a7970d2fafd433213cf4d2ef8b9a82cd860, current at 2ad9ba2406d5d5ca6f1df1ddafb14fc0fe55182d):
 *   `startTs = dayjs().subtract(48, "hour").unix()`, `endTs = dayjs().unix()`, windows
 *   `[t, min(t + 3600, endTs))` for `t = startTs; t < endTs; t += 3600` (48 windows), processed by
 *   `mapLimit(windows, HOURS_CONCURRENCY = 12)`. `src/adapters/cashmere/index.ts`
 *   (3b34f98412076b614fb04f8a3a091f9a80355775): `GET /transactionsmainnet?start_time=&end_time=
 *   &limit=50[&cursor=]`, no API key; requests of one window queued one after another
 *   (`queueKey = "${start}:${end}"`), each after a delay of 200 ms (first page) or 500 ms (cursor
 *   page); `async-retry` with `retries: 3, factor: 2, minTimeout: 1000, maxTimeout: 10000,
 *   randomize: true`, a 4xx other than 429 not retried; pages followed while `next_cursor` is set
 *   and `has_more` is true (at most 1000); a failed first page loses the window, three failed
 *   cursor pages in a row (after 2 s and 4 s pauses) stop it. The first version
 *   (01ca6981f86b578df864a8a6a65f53d814c603cb) ran the same windows one at a time through one
 *   queue (`queueKey = 0`): {@link BridgesServerVersion} `sequential`.
 */

/** One HTTP call of a replay. */
export interface ReplayCall {
  /** Path and query, e.g. `/defillama/fees?from_timestamp=...&to_timestamp=...`. */
  readonly path: string;
  /** HTTP status, or 0 when no answer arrived (connection error, 30 s timeout). */
  readonly status: number;
  /** Milliseconds from the start of the replay to the request. */
  readonly atMs: number;
  /** Milliseconds the call took. */
  readonly durationMs: number;
}

/** What a replay did. */
export interface ReplayReport {
  /** The client replayed. */
  readonly client: string;
  /** Every HTTP call, retries included, in the order they were sent. */
  readonly calls: ReplayCall[];
  /** Windows (runs or hourly windows) the client gave up on: data it would not record. */
  readonly lostWindows: number;
  /** Windows asked for. */
  readonly windows: number;
  /** Wall-clock length of the replay, ms. */
  readonly durationMs: number;
  /**
   * Transfer records received (bridges-server) keyed by id, so a caller can compare them with
   * the database; empty for the fee runner.
   */
  readonly recordIds: number[];
  /** The figures received (fee runner), one per window in order; empty for bridges-server. */
  readonly figures: Record<string, unknown>[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A recorder of calls relative to a start time. */
function callLog(base: string) {
  const started = performance.now();
  const calls: ReplayCall[] = [];
  /** GETs `path` on `base` (30 s timeout, node-fetch's `timeout: 30000`) and records the call. */
  async function get(path: string): Promise<{ status: number; body: unknown }> {
    const at = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) });
      status = res.status;
      const text = await res.text();
      return { status, body: text ? (JSON.parse(text) as unknown) : undefined };
    } catch (err) {
      if (status !== 0) return { status, body: undefined };
      throw err;
    } finally {
      calls.push({
        path,
        status,
        atMs: Math.round(at - started),
        durationMs: Math.round(performance.now() - at),
      });
    }
  }
  return { calls, get, elapsed: () => Math.round(performance.now() - started) };
}

/** The window a dimension-adapters run for `T` (UNIX seconds) asks for: `[T - 86401, T)`. */
export function feeRunnerWindow(T: number): { from_timestamp: number; to_timestamp: number } {
  const ONE_DAY_IN_SECONDS = 60 * 60 * 24;
  const toTimestamp = T - 1;
  const fromTimestamp = toTimestamp - ONE_DAY_IN_SECONDS;
  return { from_timestamp: fromTimestamp, to_timestamp: toTimestamp + 1 };
}

/**
 * Replays dimension-adapters' fee runner (`fees/cashmere`) and bridge-aggregator runner
 * (`bridge-aggregators/cashmere`) for each run time in `runTimes` (UNIX seconds), one run after
 * another as the job runs them, each through fetchURL's retries (4 attempts, no pause).
 *
 * @param base the Monitoring API's origin, e.g. `http://127.0.0.1:3000`.
 */
export async function replayFeeRunner(
  base: string,
  runTimes: readonly number[],
): Promise<ReplayReport> {
  const log = callLog(base);
  const figures: Record<string, unknown>[] = [];
  let lost = 0;
  const fetchURL = async (path: string, retries = 3): Promise<Record<string, unknown>> => {
    try {
      const { status, body } = await log.get(path);
      if (status < 200 || status > 299 || !body) throw new Error(`HTTP ${status} for ${path}`);
      return body as Record<string, unknown>;
    } catch (err) {
      if (retries > 0) return fetchURL(path, retries - 1);
      throw err;
    }
  };
  for (const T of runTimes) {
    const { from_timestamp, to_timestamp } = feeRunnerWindow(T);
    const query = `?from_timestamp=${from_timestamp}&to_timestamp=${to_timestamp}`;
    for (const path of [`/defillama/fees${query}`, `/defillama/bridge/volumes${query}`]) {
      try {
        figures.push(await fetchURL(path));
      } catch {
        lost += 1;
      }
    }
  }
  return {
    client: 'dimension-adapters fees + bridge-aggregators (cashmere)',
    calls: log.calls,
    lostWindows: lost,
    windows: runTimes.length * 2,
    durationMs: log.elapsed(),
    recordIds: [],
    figures,
  };
}

/**
 * Which bridges-server code to replay: `concurrent` is the current one (12 hourly windows at a
 * time, one queue per window), `sequential` the first one (one window at a time, one queue).
 */
export type BridgesServerVersion = 'concurrent' | 'sequential';

/** A page of `/transactionsmainnet` as the adapter reads it. */
interface FeedPage {
  transactions?: { id: number }[];
  next_cursor?: string;
  has_more?: boolean;
}

/** async-retry's pause before retry `attempt` (0-based): `min(random(1..2) * 1000 * 2^attempt, 10000)`. */
const retryPause = (attempt: number) => Math.min((1 + Math.random()) * 1000 * 2 ** attempt, 10_000);

/**
 * Replays bridges-server's `runCashmere` job once at `nowSeconds` (its `dayjs().unix()`):
 * 48 hourly windows of `/transactionsmainnet`, `limit=50`, with the adapter's queueing, delays,
 * retries and page loop.
 *
 * @param base the Monitoring API's origin, e.g. `http://127.0.0.1:3000`.
 */
export async function replayBridgesServer(
  base: string,
  nowSeconds: number,
  version: BridgesServerVersion,
): Promise<ReplayReport> {
  const log = callLog(base);
  const requestQueues = new Map<string, Promise<unknown>>();
  const recordIds: number[] = [];
  let lost = 0;

  const fetchTransactionsByTime = async (
    start: number,
    end: number,
    cursor?: string,
  ): Promise<FeedPage> => {
    let path = `/transactionsmainnet?start_time=${start}&end_time=${end}&limit=50`;
    if (cursor) path += `&cursor=${cursor}`;
    for (let attempt = 0; ; attempt++) {
      const answer = await log.get(path).catch((err: unknown) => err as Error);
      let failure: Error;
      if (answer instanceof Error) failure = answer;
      else if (answer.status >= 200 && answer.status <= 299) return answer.body as FeedPage;
      else {
        failure = new Error(`HTTP ${answer.status} for ts ${start}-${end}`);
        // A 4xx other than 429 is a NoRetryError: onRetry rethrows it.
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) throw failure;
      }
      if (attempt >= 3) throw failure;
      await sleep(retryPause(attempt));
    }
  };

  const rateLimitedFetchByTime = (start: number, end: number, cursor?: string) => {
    const delay = cursor ? 500 : 200;
    const queueKey = version === 'sequential' ? '0' : `${start}:${end}`;
    const lastRequest = requestQueues.get(queueKey) ?? Promise.resolve();
    const currentRequest = lastRequest
      .then(() => sleep(delay))
      .then(() => fetchTransactionsByTime(start, end, cursor));
    requestQueues.set(queueKey, currentRequest);
    return currentRequest;
  };

  const forEachTransactionsByTimePage = async (start: number, end: number) => {
    let consecutiveErrors = 0;
    try {
      const first = await rateLimitedFetchByTime(start, end);
      const firstPage = first.transactions ?? [];
      recordIds.push(...firstPage.map((tx) => tx.id));
      let cursor = first.next_cursor;
      let pageCount = firstPage.length ? 1 : 0;
      while (cursor && pageCount < 1000) {
        try {
          const page = await rateLimitedFetchByTime(start, end, cursor);
          cursor = page.next_cursor;
          recordIds.push(...(page.transactions ?? []).map((tx) => tx.id));
          pageCount += 1;
          consecutiveErrors = 0;
          if (!page.has_more) break;
        } catch {
          consecutiveErrors++;
          if (consecutiveErrors >= 3) {
            lost += 1;
            break;
          }
          await sleep(2 ** consecutiveErrors * 1000);
        }
      }
    } catch {
      lost += 1;
    }
  };

  const startTs = nowSeconds - 48 * 3600;
  const endTs = nowSeconds;
  const windows: [number, number][] = [];
  for (let t = startTs; t < endTs; t += 3600) windows.push([t, Math.min(t + 3600, endTs)]);

  if (version === 'sequential') {
    for (const [from, to] of windows) await forEachTransactionsByTimePage(from, to);
  } else {
    // mapLimit(windows, HOURS_CONCURRENCY = 12, processHourWindow)
    let next = 0;
    const worker = async () => {
      while (next < windows.length) {
        const [from, to] = windows[next++]!;
        await forEachTransactionsByTimePage(from, to);
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
  }
  return {
    client: `bridges-server runCashmere (${version})`,
    calls: log.calls,
    lostWindows: lost,
    windows: windows.length,
    durationMs: log.elapsed(),
    recordIds,
    figures: [],
  };
}

/** Calls per status of `report`, e.g. `{ "200": 144 }`. */
export function statusCounts(report: ReplayReport): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of report.calls) counts[call.status] = (counts[call.status] ?? 0) + 1;
  return counts;
}

/** The most calls `report` sent within any 60 s, and the most within any 1 s. */
export function peakRates(report: ReplayReport): { perMinute: number; perSecond: number } {
  const times = report.calls.map((c) => c.atMs).sort((a, b) => a - b);
  const peak = (spanMs: number) => {
    let best = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= spanMs) j++;
      best = Math.max(best, i - j + 1);
    }
    return best;
  };
  return { perMinute: peak(60_000), perSecond: peak(1_000) };
}
