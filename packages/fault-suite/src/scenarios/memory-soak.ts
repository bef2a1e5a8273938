/**
 * Scenario 7: a memory soak of both APIs (docs/operations.md "Memory"). For {@link SOAK_MS},
 * keep-alive clients send mixed traffic that fills every in-process cache with distinct keys
 * (first feed pages of 100 page sizes and 9 source domains, statistics series of every length
 * and per-sender volumes, leaderboards, user look-ups, quotes of every domain pair, prices and
 * routes), while the resident set size of each API process is read from /proc every 250 ms.
 * Asserted: the peak RSS of each stays below its chart's memory limit (the API container's
 * `resources.limits.memory` in infra/helm/<chart>/values.yaml) and every request is answered
 * without a 5xx.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { keepAliveAgent, send, type RequestSpec, type Sample } from '../http.js';
import { stopSwitch } from '../load.js';
import type { Child } from '../processes.js';
import { check, checkSamePids, figure, fmt, outcomes, summarize } from '../report.js';
import { GAS_URL, MONITORING_URL } from '../services.js';
import { REPO_ROOT } from '../settings.js';

const NAME = '9 memory soak';
/** Length of the soak, ms. */
const SOAK_MS = 45_000;
/** Longest wait for one answer, ms (a slow answer is not a lost one; the host may be busy). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Keep-alive clients per API. */
const CLIENTS = 4;
/** CCTP domains of the monitoring feeds' `source_domain` filter. */
const DOMAINS = [0, 1, 2, 3, 5, 6, 7, 10, 11];
/** CCTP domains the fake upstream prices (upstream.ts: Ethereum, Arbitrum, Solana, Sui, Aptos). */
const PRICED_DOMAINS = [0, 3, 5, 8, 9];

/** The API container's memory limit of `chart`, MiB: the first `limits: memory:` in its values.yaml. */
function chartMemoryLimitMi(chart: string): number {
  const values = readFileSync(path.join(REPO_ROOT, 'infra/helm', chart, 'values.yaml'), 'utf8');
  const match = /\blimits:\s*\n\s+memory:\s*(\d+)Mi\b/.exec(values);
  if (!match) throw new Error(`no resources.limits.memory in infra/helm/${chart}/values.yaml`);
  return Number(match[1]);
}

/** Resident set size of `pid`, MiB (Linux /proc/<pid>/status VmRSS); NaN once it is gone. */
function rssMi(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const int = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const hexAddress = () =>
  `0x${Array.from({ length: 40 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

/** A monitoring API request with a key drawn from a wide range, so caches fill. */
function monitoringRequest(username: string): RequestSpec {
  const m = MONITORING_URL;
  return pick<() => RequestSpec>([
    () => ({ label: 'feed', url: `${m}/transactionsmainnet?limit=${int(1, 100)}` }),
    () => ({
      label: 'feed-filter',
      url: `${m}/transactionsmainnet?limit=${int(50, 100)}&source_domain=${pick(DOMAINS)}`,
    }),
    () => ({ label: 'feed-testnet', url: `${m}/transactions?limit=${int(1, 100)}` }),
    () => ({ label: 'stats-daily', url: `${m}/stats/mainnet/volumes/daily?limit=${int(1, 90)}` }),
    () => ({ label: 'stats-hourly', url: `${m}/stats/mainnet/volumes/hourly?limit=${int(1, 48)}` }),
    () => ({ label: 'stats-senders', url: `${m}/stats/mainnet/volumes?senders=${hexAddress()}` }),
    () => ({ label: 'stats-fees', url: `${m}/stats/mainnet/fees` }),
    () => ({ label: 'chain-shares', url: `${m}/stats/mainnet/chain-shares` }),
    () => ({ label: 'leaderboard', url: `${m}/users/leaderboard?limit=${int(1, 100)}` }),
    () => ({ label: 'users', url: `${m}/users?domains=${encodeURIComponent(username)}` }),
  ])();
}

/** A gas quote API request: quotes of every domain pair, prices, routes. */
function gasRequest(): RequestSpec {
  const g = GAS_URL;
  const from = pick(PRICED_DOMAINS);
  const to = pick(PRICED_DOMAINS.filter((d) => d !== from));
  return pick<() => RequestSpec>([
    () => ({
      label: 'quote-ecdsa',
      url: `${g}/getEcdsaSig_native?localDomain=${from}&destinationDomain=${to}&isV2=${pick(['true', 'false'])}&isNative=${pick(['true', 'false'])}`,
    }),
    () => ({
      label: 'quote-ed25519',
      url: `${g}/getEd25519Sig_native?localDomain=5&destinationDomain=${to === 5 ? 0 : to}&isNative=${pick(['true', 'false'])}`,
    }),
    () => ({ label: 'tokenPrices', url: `${g}/tokenPrices` }),
    () => ({ label: 'routes', url: `${g}/routes` }),
  ])();
}

/** Runs the soak against the running `gas` and `monitoring` APIs. */
export async function memorySoak(gas: Child, monitoring: Child, username: string): Promise<void> {
  const services = [
    { child: monitoring, chart: 'monitoring-api', peak: 0, samples: [] as number[] },
    { child: gas, chart: 'gas-quote-api', peak: 0, samples: [] as number[] },
  ];
  const pids = services.map((s) => s.child.pid);
  for (const s of services) figure(NAME, `${s.chart} RSS before`, `${fmt(rssMi(s.child.pid))} MiB`);
  const stop = stopSwitch();
  const deadline = Date.now() + SOAK_MS;
  const sampler = (async () => {
    while (!stop.stopped() && Date.now() < deadline) {
      for (const s of services) {
        const rss = rssMi(s.child.pid);
        s.samples.push(rss);
        s.peak = Math.max(s.peak, Number.isNaN(rss) ? 0 : rss);
      }
      await sleep(250);
    }
  })();
  // One keep-alive client: requests one after another, each allowed REQUEST_TIMEOUT_MS.
  const loop = async (next: () => RequestSpec): Promise<Sample[]> => {
    const agent = keepAliveAgent();
    const out: Sample[] = [];
    while (!stop.stopped() && Date.now() < deadline)
      out.push(await send(agent, next(), REQUEST_TIMEOUT_MS));
    agent.destroy();
    return out;
  };
  const loops = [
    ...Array.from({ length: CLIENTS }, () => loop(() => monitoringRequest(username))),
    ...Array.from({ length: CLIENTS }, () => loop(gasRequest)),
  ];
  const samples: Sample[] = (await Promise.all(loops)).flat();
  stop.stop();
  await sampler;

  const answered = (s: Sample) => s.status > 0 && s.status < 500;
  summarize(NAME, 'mixed requests', samples, answered);
  figure(NAME, 'outcomes', outcomes(samples));
  check(
    NAME,
    'every request answered without a 5xx or a socket error',
    outcomes(samples.filter((s) => !answered(s))),
    samples.length > 0 && samples.every(answered),
  );
  for (const s of services) {
    const limit = chartMemoryLimitMi(s.chart);
    const last = s.samples.filter((v) => !Number.isNaN(v)).at(-1) ?? Number.NaN;
    figure(
      NAME,
      `${s.chart} RSS`,
      `peak ${fmt(s.peak)} MiB, at the end ${fmt(last)} MiB, chart limit ${limit} MiB (${s.samples.length} readings)`,
    );
    check(
      NAME,
      `${s.chart} peak RSS below the chart's memory limit (${limit} MiB)`,
      `${fmt(s.peak)} MiB`,
      s.peak > 0 && s.peak < limit,
    );
  }
  checkSamePids(NAME, [monitoring, gas], pids);
}
