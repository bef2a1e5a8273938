/**
 * The loops of `pnpm demo` (docs/indexer.md "Demo"): waits that a stop cuts short, and the
 * sending loop shared by the generator on chain A (generator.ts) and the Solana wallet
 * (solana.ts): one transfer every interval, each followed to settlement (track.ts), a failed send
 * counted and logged, the loop going on.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CtssClient } from '@ctss/sdk';
import { followTransfer } from './track.js';

/** Waits `ms` milliseconds (none when not positive), or until `signal` is aborted. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  // node:timers/promises rejects with an AbortError when the signal aborts the wait.
  await delay(ms, undefined, { signal }).catch(() => undefined);
}

/** A transfer a sending loop sent. */
interface Sent {
  /** Its origin transaction (0x hash, or a base58 Solana signature), followed to settlement. */
  readonly hash: string;
  /** What the demo logs about it. */
  readonly line: string;
}

/** The wiring of {@link startSendingLoop}. */
export interface SendingLoopOptions {
  /** Follows each sent transfer through the Monitoring API. */
  readonly ctss: CtssClient;
  /** Time from the start of one send to the start of the next, ms. */
  readonly intervalMs: number;
  /** The failure line's prefix ("transfer failed", "transfer failed on Solana"). */
  readonly failure: string;
  readonly log: (line: string) => void;
  /**
   * Builds and sends the `n`-th transfer (n = 0, 1, ...).
   *
   * @throws when the transfer cannot be sent (counted as failed; the loop goes on).
   */
  send(n: number): Promise<Sent>;
}

/** A running sending loop. */
export interface SendingLoop {
  /** Transfers sent, and sends that failed, so far. */
  readonly counts: { sent: number; failed: number };
  /** Stops after the send in progress (and waits for it and the tracking). */
  stop(): Promise<void>;
}

/** Starts sending one transfer every `intervalMs` until stopped. */
export function startSendingLoop(o: SendingLoopOptions): SendingLoop {
  const counts = { sent: 0, failed: 0 };
  const stopper = new AbortController();
  const tracking = new Set<Promise<unknown>>();
  const loop = (async () => {
    for (let n = 0; !stopper.signal.aborted; n++) {
      const started = Date.now();
      try {
        const sent = await o.send(n);
        counts.sent++;
        o.log(sent.line);
        const t = followTransfer(o.ctss, sent.hash, stopper.signal, o.log);
        tracking.add(t);
        void t.finally(() => tracking.delete(t));
      } catch (err) {
        counts.failed++;
        o.log(`${o.failure}: ${(err as Error).message.split('\n')[0]}`);
      }
      await pause(o.intervalMs - (Date.now() - started), stopper.signal);
    }
  })();
  return {
    counts,
    async stop() {
      stopper.abort();
      await loop;
      await Promise.all(tracking);
    },
  };
}
