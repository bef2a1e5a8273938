/**
 * The Solana rows of `pnpm bench:indexer` (packages/bench/README.md "Indexer"): the indexer
 * process on the local Solana cluster (`@ctss/devnet` solana-cluster.ts, transfers built and
 * signed with `@solana/kit`) and a real PostgreSQL.
 *
 * 1. Backfill: N finalized transfers (one per slot), then the indexer started on an empty
 *    database; transfers/s from its /ready to every record written.
 * 2. Head latency: one transfer per slot every 250 ms, slots finalized 2 slots behind; per
 *    transfer, slot landed -> record in the table (pending, read at `confirmed`), and slot
 *    finalized -> `confirmed = true`, read by polling every 20 ms; p50/p99 against poll interval
 *    + 1 s. A transfer not read before the deadline is counted missing (the row then not met).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSolanaTransfer, evmRecipient32, startFakeIris, startLocalSolana } from '@ctss/devnet';
import type { IndexerBenchOptions } from './options.js';
import {
  headLatencies,
  pollArrivals,
  startIndexerProcess,
  type RunningIndexer,
} from './process.js';

const SLOT_EVERY_MS = 250;
const FINALIZED_BEHIND = 2;

/**
 * What the Solana rows measured: ms latencies, one per transfer read, out of `samples` transfers
 * timed (fewer latencies than samples: some were never read before the deadline).
 */
export interface SolanaBenchResult {
  readonly backfill: { transfers: number; seconds: number; transfersPerSecond: number };
  readonly head: { boundMs: number; samples: number; inFeed: number[]; confirmed: number[] };
}

const transfer = (i: number) =>
  buildSolanaTransfer({
    version: i % 2 === 0 ? 2 : 1,
    usdcAmount: 2_000_000n,
    usdcFee: 2_000n,
    destinationDomain: 0,
    recipient: evmRecipient32('0x00000000000000000000000000000000000b0e0c'),
    cctpNonce: BigInt(i + 1),
  });

/**
 * Runs both Solana rows.
 *
 * @throws when the indexer process exits or stalls before the backfill is written (its log named).
 */
export async function runSolanaBench(
  o: IndexerBenchOptions,
  log: (line: string) => void,
): Promise<SolanaBenchResult> {
  const cluster = await startLocalSolana();
  const iris = await startFakeIris(0, {}, { solanaRpcUrl: cluster.url });
  let indexer: RunningIndexer | undefined;
  try {
    const seedStart = performance.now();
    for (let i = 0; i < o.solanaTransfers; i++) cluster.land((await transfer(i)).transaction);
    cluster.finalize();
    log(
      `solana: seeded ${o.solanaTransfers} transfers in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    indexer = await startIndexerProcess({
      adminUrl: o.databaseUrl,
      database: `${o.database}_solana`,
      name: 'indexer-solana',
      irisUrl: iris.url,
      env: {
        INDEXER_CHAINS: JSON.stringify([
          {
            family: 'solana',
            name: 'bench-solana',
            rpcUrls: [cluster.url],
            pollIntervalMs: o.pollMs,
          },
        ]),
      },
    });
    const started = performance.now();
    await indexer.waitForRecords(o.solanaTransfers);
    const seconds = (performance.now() - started) / 1000;
    const rate = o.solanaTransfers / seconds;
    log(
      `solana backfill: ${o.solanaTransfers} transfers in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} transfers/s`,
    );

    const samples: { signature: string; slot: number; landedAt: number }[] = [];
    const finalizedAt = new Map<number, number>();
    const arrivals = pollArrivals(indexer.db);
    try {
      const deadline = Date.now() + o.samples * SLOT_EVERY_MS + 120_000;
      while ((samples.length < o.samples || !arrivals.allArrived(true)) && Date.now() < deadline) {
        const tick = performance.now();
        if (samples.length < o.samples) {
          const t = await transfer(o.solanaTransfers + samples.length);
          const slot = cluster.land(t.transaction);
          samples.push({ signature: t.transaction.signature, slot, landedAt: performance.now() });
          arrivals.watch(t.transaction.signature);
        } else {
          cluster.skip(1);
        }
        const final = cluster.slot - FINALIZED_BEHIND;
        cluster.finalize(final);
        if (!finalizedAt.has(final)) finalizedAt.set(final, performance.now());
        await sleep(Math.max(0, SLOT_EVERY_MS - (performance.now() - tick)));
      }
    } finally {
      await arrivals.stop();
    }
    const { inFeed, confirmed } = headLatencies(
      arrivals,
      samples.map((s) => ({
        id: s.signature,
        shownAt: s.landedAt,
        finalAt: finalizedAt.get(s.slot),
      })),
    );
    return {
      backfill: { transfers: o.solanaTransfers, seconds, transfersPerSecond: rate },
      head: { boundMs: o.pollMs + 1000, samples: o.samples, inFeed, confirmed },
    };
  } finally {
    await indexer?.stop();
    await iris.close();
    await cluster.close();
  }
}
