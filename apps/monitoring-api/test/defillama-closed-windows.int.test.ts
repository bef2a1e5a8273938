/**
 * DefiLlama's bridges-server job (the last 48 hours re-read as 1-hour windows of
 * `/transactionsmainnet`, `limit=50`, 12 windows at a time, every run; replayed from the client's
 * code in @ctss/test-support/defillama-clients) against an app whose indexer has confirmed every
 * configured chain but one lagging 5 hours (docs/decisions.md "D160. Closed feed windows and the
 * indexer's watermark", "D161. Where closed pages are kept"): its second run sends the database
 * no statement at all for the 43 closed hours, first and cursor pages alike, and one per page of
 * the 5 open ones, and collects the same records. Every statement the app's pool sends is counted
 * (knex's `query` event on the app's own database handle), not only feed statements.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { replayBridgesServer, type ReplayReport } from '@ctss/test-support/defillama-clients';
import { aTransaction, insertAll } from './support/builders.js';
import { startTestApp, type TestApp } from './support/app.js';
import { setConfirmed } from './support/cursors.js';
import { TEST_NOW } from './support/deps.js';
import { listenOnLoopback, type Listening } from './support/listen.js';
import { watchQueries } from './support/queries.js';

const HOUR = 3_600;
/** The job's `dayjs().unix()`: the app's clock (2026-11-21T12:34:56Z, not on an hour). */
const NOW = Math.trunc(TEST_NOW.getTime() / 1000);
/** How far the lagging chain's confirmed cursor is behind NOW. */
const LAG = 5 * HOUR;
/** Records an hour: three pages of 50 in every window, so each window has two cursor pages. */
const PER_HOUR = 120;

let t: TestApp;
let server: Listening;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      FEED_INDEXED_CHAINS: 'mainnet:0,mainnet:6',
      FEED_FIRST_PAGE_CACHE_SECONDS: '0',
      HTTP_COMPRESSION: 'false',
    },
  });
  // Evenly spread over the 49 hours before NOW, from the two indexed chains.
  await insertAll(
    t.db.database,
    Array.from({ length: 49 * PER_HOUR }, (_, i) =>
      aTransaction({
        source_domain: i % 2 === 0 ? 0 : 6,
        created_at: new Date((NOW - 49 * HOUR + Math.floor((i * HOUR) / PER_HOUR)) * 1000),
      }),
    ),
  );
  // Domain 0 is confirmed up to NOW, domain 6 lags: the watermark is NOW - LAG.
  for (const [domain, confirmed] of [
    [0, NOW],
    [6, NOW - LAG],
  ] as const) {
    await setConfirmed(t.db.knex, domain, confirmed);
  }
  server = await listenOnLoopback(t.app);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** Whether a call's window (`start_time`/`end_time` of its path) ends at or below the watermark. */
const closed = (path: string): boolean =>
  Number(new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('end_time')) <= NOW - LAG;

describe("DefiLlama's 48 hourly windows, run twice", () => {
  it('the second run costs the database nothing for the closed hours, cursor pages included', async () => {
    const first: ReplayReport = await replayBridgesServer(server.base, NOW, 'concurrent');
    expect(first.lostWindows).toBe(0);
    expect(first.calls.every((c) => c.status === 200)).toBe(true);

    const watch = watchQueries(t.db.database, '');
    let second: ReplayReport;
    try {
      second = await replayBridgesServer(server.base, NOW, 'concurrent');
    } finally {
      watch.stop();
    }
    expect(second.lostWindows).toBe(0);
    expect(second.calls.every((c) => c.status === 200)).toBe(true);

    const closedCalls = second.calls.filter((c) => closed(c.path));
    const openCalls = second.calls.filter((c) => !closed(c.path));
    // 43 closed windows of 3 pages (2 of them cursor pages) each, 5 open ones.
    expect(new Set(closedCalls.map((c) => c.path.split('&cursor=')[0])).size).toBe(43);
    expect(closedCalls.filter((c) => c.path.includes('&cursor=')).length).toBe(43 * 2);
    expect(openCalls.length).toBeGreaterThan(0);
    // One feed statement per open-window page, none for a closed one, and nothing else.
    expect(watch.queries).toHaveLength(openCalls.length);
    expect(watch.queries.every((sql) => sql.includes('from transactions'))).toBe(true);
    expect([...second.recordIds].sort((a, b) => a - b)).toEqual(
      [...first.recordIds].sort((a, b) => a - b),
    );
    expect(new Set(second.recordIds).size).toBe(48 * PER_HOUR);
  }, 120_000);
});
