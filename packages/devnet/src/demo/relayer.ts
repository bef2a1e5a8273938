/**
 * The relayer of `pnpm demo` (docs/indexer.md "Demo"): every second it lists, per route (origin
 * domain -> destination domain), the transfers the Monitoring API shows `pending` since the demo
 * started, whoever sent them (so transfers made by hand against the demo settle too), asks the
 * local Iris for each one's attested message (`attestedMessage`, as a relayer reads Circle's
 * Iris) and delivers it on the destination: `receiveMessage` on an anvil chain from an account
 * that only relays, or Circle's `receive_message` landed on the local Solana cluster. One
 * delivery at a time: the receives of one chain share the relaying account's nonce.
 */
import type { CtssClient } from '@ctss/sdk';
import { attestedMessage } from '../fake-iris.js';
import type { Hex } from 'viem';

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
  /** Receives delivered, and deliveries that failed, so far. */
  readonly counts: { received: number; failed: number };
  /** Stops after the pass in progress (and waits for it). */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One pass over every route. */
async function relayAttested(
  o: RelayerOptions,
  relayed: Set<string>,
  counts: Relayer['counts'],
): Promise<void> {
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
        counts.received++;
        o.log(`received on ${route.name}: ${received} (for ${hash})`);
      } catch (err) {
        counts.failed++;
        o.log(`receive of ${hash} failed: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }
}

/** Starts relaying every second. */
export function startRelayer(o: RelayerOptions): Relayer {
  const counts = { received: 0, failed: 0 };
  const relayed = new Set<string>();
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        await relayAttested(o, relayed, counts);
      } catch (err) {
        o.log(`relayer: ${(err as Error).message.split('\n')[0]}`);
      }
      for (let waited = 0; waited < 1000 && !stopping; waited += 100) await sleep(100);
    }
  })();
  return {
    counts,
    async stop() {
      stopping = true;
      await loop;
    },
  };
}
