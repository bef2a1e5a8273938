/**
 * The relayer of `pnpm demo` (docs/indexer.md "Demo"): every second it lists, per route (origin
 * domain -> destination domain), the transfers the Monitoring API shows `pending` since the demo
 * started, whoever sent them (so transfers made by hand against the demo settle too), asks the
 * local Iris for each one's attested message (`attestedMessage`, as a relayer reads Circle's
 * Iris) and delivers it on the destination: `receiveMessage` on an anvil chain from an account
 * that only relays, or Circle's `receive_message` landed on the local Solana cluster. One
 * delivery at a time: the receives of one chain share the relaying account's nonce. A failed
 * delivery is tried again on the next pass, up to {@link DELIVERY_ATTEMPTS} times, then given up
 * (logged and counted).
 */
import type { CtssClient } from '@ctss/sdk';
import { attestedMessage } from '../fake-iris.js';
import type { Hex } from 'viem';
import { pause } from './loop.js';

/** A route the relayer serves. */
interface RelayRoute {
  readonly source: number;
  readonly destination: number;
  /** The destination as the log names it ("chain B", "Solana"). */
  readonly name: string;
  /**
   * Delivers an attested message on the destination.
   *
   * @returns the destination transaction (0x hash or base58 signature).
   * @throws when the delivery fails (e.g. the receive reverts).
   */
  deliver(version: 1 | 2, message: Hex): Promise<string>;
}

/** The relayer's wiring. */
export interface RelayerOptions {
  /** Reads the Monitoring API's feed. */
  readonly ctss: CtssClient;
  readonly irisUrl: string;
  readonly routes: readonly RelayRoute[];
  /** Oldest record relayed, UNIX seconds. */
  readonly since: number;
  readonly log: (line: string) => void;
}

/** A running relayer. */
export interface Relayer {
  /**
   * Receives delivered, and transfers given up (their delivery failed {@link DELIVERY_ATTEMPTS}
   * times), so far.
   */
  readonly counts: { received: number; failed: number };
  /** Stops after the pass in progress (and waits for it). */
  stop(): Promise<void>;
}

/**
 * Deliveries tried per transfer before the relayer gives it up: a failed one (a revert, a nonce
 * race, the destination briefly away) is tried again on the next pass, a second later.
 */
export const DELIVERY_ATTEMPTS = 5;

/** What the relayer keeps between passes. */
interface RelayState {
  /** Origin transactions delivered, being delivered, or given up. */
  readonly relayed: Set<string>;
  /** Failed deliveries so far, by origin transaction. */
  readonly failures: Map<string, number>;
  readonly counts: Relayer['counts'];
}

/** One pass over every route. */
async function relayAttested(o: RelayerOptions, state: RelayState): Promise<void> {
  const { relayed, failures, counts } = state;
  for (const route of o.routes) {
    const page = await o.ctss.monitoring.transactions({
      source_domain: route.source,
      destination_domain: route.destination,
      status: 'pending',
      start_time: o.since,
      limit: 50,
    });
    for (const record of page.transactions) {
      const hash = record.source_tx_hash;
      if (relayed.has(hash)) continue;
      const version = record.version === 2 ? 2 : 1;
      const message = await attestedMessage(o.irisUrl, route.source, hash, version);
      if (!message) continue;
      relayed.add(hash);
      try {
        const received = await route.deliver(version, message);
        failures.delete(hash);
        counts.received++;
        o.log(`received on ${route.name}: ${received} (for ${hash})`);
      } catch (err) {
        const failed = (failures.get(hash) ?? 0) + 1;
        const reason = (err as Error).message.split('\n')[0];
        if (failed < DELIVERY_ATTEMPTS) {
          failures.set(hash, failed);
          relayed.delete(hash);
          o.log(
            `receive of ${hash} failed (attempt ${failed} of ${DELIVERY_ATTEMPTS}, tried again next pass): ${reason}`,
          );
        } else {
          failures.delete(hash);
          counts.failed++;
          o.log(`receive of ${hash} failed ${failed} times; given up: ${reason}`);
        }
      }
    }
  }
}

/** Starts relaying every second. */
export function startRelayer(o: RelayerOptions): Relayer {
  const state: RelayState = {
    relayed: new Set(),
    failures: new Map(),
    counts: { received: 0, failed: 0 },
  };
  const stopper = new AbortController();
  const loop = (async () => {
    while (!stopper.signal.aborted) {
      try {
        await relayAttested(o, state);
      } catch (err) {
        o.log(`relayer: ${(err as Error).message.split('\n')[0]}`);
      }
      await pause(1000, stopper.signal);
    }
  })();
  return {
    counts: state.counts,
    async stop() {
      stopper.abort();
      await loop;
    },
  };
}
