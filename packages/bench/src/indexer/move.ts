/**
 * The Sui and Aptos rows of `pnpm bench:indexer` (packages/bench/README.md "Indexer"): the indexer
 * process against a local server speaking the chain's protocol (`@ctss/devnet/move`: Sui GraphQL
 * RPC on Sui's published schema, events by type paged by cursor; Aptos Indexer GraphQL events by
 * type and the node's REST transactions by version), with transfer events built by `@mysten/sui` /
 * `@aptos-labs/ts-sdk`, and a real PostgreSQL.
 *
 * 1. Backfill: N transfers (one per Sui checkpoint / Aptos transaction), then the indexer started
 *    on an empty database; transfers/s from its /ready to every record written.
 * 2. Head latency: one transfer every 250 ms; per transfer, the time from it appearing on the
 *    local server (its checkpoint / version at the head) to its record in the table, read by
 *    polling every 20 ms; p50/p99 against poll interval + 1 s. Both chains serve only final
 *    positions, so the record is written confirmed: there is no second latency. A transfer whose
 *    record is not read before the deadline is counted missing (the row then not met).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeIris } from '@ctss/devnet';
import {
  APTOS_EXAMPLE_ADDRESSES,
  aptosTransferEvents,
  startFakeAptos,
  startFakeSui,
  SUI_EXAMPLE_PACKAGES,
  suiTransferEvents,
} from '@ctss/devnet/move';
import type { Hex } from 'viem';
import type { IndexerBenchOptions } from './options.js';
import {
  headLatencies,
  pollArrivals,
  startIndexerProcess,
  type RunningIndexer,
} from './process.js';

const TRANSFER_EVERY_MS = 250;
const DESTINATION_MESSENGER = '0x00000000000000000000000000000000000e0e01' as Hex;
const USDC = { amount: 2_000_000n, fee: 2_000n };
const recipient = (i: number): Hex => `0x${(i + 1).toString(16).padStart(40, '0')}`;

/**
 * What a Move family's rows measured: ms latencies, one per transfer recorded, out of `samples`
 * transfers timed (fewer latencies than samples: some were never recorded before the deadline).
 */
export interface MoveBenchResult {
  readonly backfill: { transfers: number; seconds: number; transfersPerSecond: number };
  readonly head: { boundMs: number; samples: number; inFeed: number[] };
}

/** A local Move chain as the bench drives it. */
interface LocalMoveChain {
  /** Adds transfer `i` at the head; returns its `source_tx_hash`. */
  add(i: number): string;
  /** The indexer's environment naming this chain. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

async function localSui(pollMs: number): Promise<LocalMoveChain> {
  const sui = await startFakeSui();
  const p = SUI_EXAMPLE_PACKAGES;
  return {
    add(i) {
      const { events } = suiTransferEvents(p, {
        destination: 0,
        recipient: recipient(i),
        destinationMessenger: DESTINATION_MESSENGER,
        user: '0x5ee',
        ...USDC,
        cctpNonce: BigInt(i + 1),
        transferNonce: BigInt(i + 1),
      });
      return sui.addTransaction(events).digest;
    },
    env: {
      INDEXER_SUI_CHAINS: JSON.stringify([
        {
          name: 'bench-sui',
          graphqlUrl: sui.url,
          transferPackages: [p.transfer],
          tokenMessengerMinterPackage: p.tokenMessengerMinter,
          messageTransmitterPackage: p.messageTransmitter,
          startCheckpoint: 0,
          pollIntervalMs: pollMs,
        },
      ]),
    },
    close: () => sui.close(),
  };
}

async function localAptos(pollMs: number): Promise<LocalMoveChain> {
  const aptos = await startFakeAptos();
  const a = APTOS_EXAMPLE_ADDRESSES;
  return {
    add(i) {
      const { events } = aptosTransferEvents(a, {
        destination: 0,
        recipient: recipient(i),
        destinationMessenger: DESTINATION_MESSENGER,
        user: `0x${'5ee'.padStart(64, '0')}`,
        ...USDC,
        gasDrop: 0n,
        cctpNonce: BigInt(i + 1),
        transferNonce: BigInt(i + 1),
      });
      return aptos.addTransaction(events).hash;
    },
    env: {
      INDEXER_APTOS_CHAINS: JSON.stringify([
        {
          name: 'bench-aptos',
          indexerUrl: aptos.indexerUrl,
          restUrl: aptos.restUrl,
          transferModules: [a.transferModule.toString()],
          tokenMessengerMinter: a.tokenMessengerMinter.toString(),
          messageTransmitter: a.messageTransmitter.toString(),
          startVersion: 0,
          pollIntervalMs: pollMs,
        },
      ]),
    },
    close: () => aptos.close(),
  };
}

/**
 * Per transfer at the head: appeared on the local server -> its record, ms, for the transfers
 * whose record was read before the deadline (`samples` × 250 ms + 120 s); the others are missing
 * from the list.
 */
async function headLatency(
  chain: LocalMoveChain,
  indexer: RunningIndexer,
  first: number,
  samples: number,
): Promise<number[]> {
  const timed: { id: string; appearedAt: number }[] = [];
  const arrivals = pollArrivals(indexer.db);
  try {
    const deadline = Date.now() + samples * TRANSFER_EVERY_MS + 120_000;
    while ((timed.length < samples || !arrivals.allArrived(false)) && Date.now() < deadline) {
      const tick = performance.now();
      if (timed.length < samples) {
        const id = chain.add(first + timed.length);
        timed.push({ id, appearedAt: performance.now() });
        arrivals.watch(id);
      }
      await sleep(Math.max(0, TRANSFER_EVERY_MS - (performance.now() - tick)));
    }
  } finally {
    await arrivals.stop();
  }
  return headLatencies(
    arrivals,
    timed.map((s) => ({ id: s.id, shownAt: s.appearedAt })),
  ).inFeed;
}

/**
 * Runs both rows of `family` with `transfers` transfers for the backfill.
 *
 * @throws when the indexer process cannot start on its database, or exits or stalls before the
 *   backfill is written (its log named).
 */
export async function runMoveBench(
  family: 'sui' | 'aptos',
  transfers: number,
  o: IndexerBenchOptions,
  log: (line: string) => void,
): Promise<MoveBenchResult> {
  const chain = family === 'sui' ? await localSui(o.pollMs) : await localAptos(o.pollMs);
  const iris = await startFakeIris(0, {});
  let indexer: RunningIndexer | undefined;
  try {
    const seedStart = performance.now();
    for (let i = 0; i < transfers; i++) chain.add(i);
    log(
      `${family}: seeded ${transfers} transfers in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    indexer = await startIndexerProcess({
      adminUrl: o.databaseUrl,
      database: `${o.database}_${family}`,
      name: `indexer-${family}`,
      irisUrl: iris.url,
      env: chain.env,
    });
    const started = performance.now();
    await indexer.waitForRecords(transfers);
    const seconds = (performance.now() - started) / 1000;
    const rate = transfers / seconds;
    log(
      `${family} backfill: ${transfers} transfers in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} transfers/s`,
    );
    const inFeed = await headLatency(chain, indexer, transfers, o.samples);
    return {
      backfill: { transfers, seconds, transfersPerSecond: rate },
      head: { boundMs: o.pollMs + 1000, samples: o.samples, inFeed },
    };
  } finally {
    await indexer?.stop();
    await iris.close();
    await chain.close();
  }
}
