/**
 * `pnpm replay:defillama [--base URL] [--clients LIST] [--now UNIX]`: replays DefiLlama's clients
 * of the Monitoring API (./defillama-clients.ts: sources and arithmetic read) against a running
 * service, e.g. `pnpm start`, with their real timestamps, pacing and concurrency, from this
 * machine's address and without an API key, so the default rate limits apply (docs/api.md
 * "Rate limits"). Clients run one after another, as separate jobs would: `bridges` (current
 * 12-way bridges-server job), `bridges-sequential` (its first form), `fees` (dimension-adapters
 * fee and bridge-volume runners for the last 7 UTC midnights and `now - 2.5 h`). Prints one JSON
 * line per client (calls, statuses, lost windows, duration, peak rates, records) and exits 1 when
 * any call was not a 200 or any window was lost.
 */
import { parseArgs } from 'node:util';
import {
  peakRates,
  replayBridgesServer,
  replayFeeRunner,
  statusCounts,
  type ReplayReport,
} from './defillama-clients.js';

const CLIENTS = ['bridges', 'bridges-sequential', 'fees'] as const;
type Client = (typeof CLIENTS)[number];

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    clients: { type: 'string', default: CLIENTS.join(',') },
    now: { type: 'string' },
  },
  strict: true,
  allowPositionals: false,
});

const clients = values.clients.split(',').map((c) => c.trim());
const unknown = clients.filter((c) => !(CLIENTS as readonly string[]).includes(c));
if (unknown.length > 0) {
  console.error(`unknown client(s) ${unknown.join(', ')}; expected ${CLIENTS.join(', ')}`);
  process.exit(2);
}
if (values.now !== undefined && !/^[0-9]{1,12}$/.test(values.now)) {
  console.error('--now must be UNIX seconds');
  process.exit(2);
}
const now = values.now === undefined ? Math.trunc(Date.now() / 1000) : Number(values.now);
const base = values.base.replace(/\/$/, '');

/** One client's run. */
function run(client: Client): Promise<ReplayReport> {
  switch (client) {
    case 'bridges':
      return replayBridgesServer(base, now, 'concurrent');
    case 'bridges-sequential':
      return replayBridgesServer(base, now, 'sequential');
    case 'fees': {
      const midnight = now - (now % 86_400);
      const runTimes = [
        ...Array.from({ length: 7 }, (_, i) => midnight - (6 - i) * 86_400),
        now - 60 * 60 * 2.5,
      ];
      return replayFeeRunner(base, runTimes);
    }
  }
}

let failed = false;
for (const client of clients as Client[]) {
  const report = await run(client);
  const statuses = statusCounts(report);
  const ok = report.lostWindows === 0 && statuses['200'] === report.calls.length;
  failed ||= !ok;
  const durations = report.calls.map((c) => c.durationMs).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      client: report.client,
      ok,
      calls: report.calls.length,
      statuses,
      windows: report.windows,
      lostWindows: report.lostWindows,
      durationMs: report.durationMs,
      peak: peakRates(report),
      callMsMedian: durations[Math.floor(durations.length / 2)] ?? 0,
      callMsMax: durations.at(-1) ?? 0,
      records: report.recordIds.length,
    }),
  );
}
process.exit(failed ? 1 : 0);
