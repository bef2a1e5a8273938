/**
 * Bounded load: each loop is one keep-alive client sending its requests one after another,
 * with a short pause, until it is told to stop, its request budget is spent, or its deadline
 * passes (whichever first), only to 127.0.0.1.
 */
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { keepAliveAgent, send, type RequestSpec, type Sample } from './http.js';

/** Options of {@link runLoop}. */
export interface LoopOptions {
  /** Next request to send (called before each). */
  readonly next: () => RequestSpec;
  /** Pause between requests, ms. */
  readonly pauseMs: number;
  /** Request budget. */
  readonly maxRequests: number;
  /** Hard deadline, `Date.now()` ms. */
  readonly deadline: number;
  /** Checked before each request: true stops the loop. */
  readonly stopped: () => boolean;
  /** Checked after each response: true stops the loop (e.g. the server said `Connection: close`). */
  readonly stopAfter?: (s: Sample) => boolean;
  readonly agent?: http.Agent;
}

/** Runs one client loop; resolves with every sample. */
export async function runLoop(opts: LoopOptions): Promise<Sample[]> {
  const agent = opts.agent ?? keepAliveAgent();
  const samples: Sample[] = [];
  try {
    while (samples.length < opts.maxRequests && Date.now() < opts.deadline && !opts.stopped()) {
      const s = await send(agent, opts.next());
      samples.push(s);
      if (opts.stopAfter?.(s)) break;
      if (opts.pauseMs > 0) await sleep(opts.pauseMs);
    }
  } finally {
    agent.destroy();
  }
  return samples;
}

/** A stop switch shared by several loops. */
export function stopSwitch(): { stopped: () => boolean; stop: () => void } {
  let stopped = false;
  return { stopped: () => stopped, stop: () => (stopped = true) };
}

/** The `q` quantile (0..1) of `values` (nearest rank); NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Polls `probe` every 25 ms from `from` until a sample passes `good`; resolves with the ms from
 * `from` to that response, or NaN after `timeoutMs`.
 */
export async function timeToRecover(
  probe: () => Promise<Sample>,
  good: (s: Sample) => boolean,
  from: number,
  timeoutMs: number,
): Promise<number> {
  while (Date.now() - from < timeoutMs) {
    const s = await probe();
    if (good(s)) return s.endedAt - from;
    await sleep(25);
  }
  return Number.NaN;
}
