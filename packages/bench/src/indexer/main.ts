/**
 * `pnpm bench:indexer` (packages/bench/README.md "Indexer"): the transfer indexer process
 * (`apps/monitoring-api/dist/bin/indexer.js`) on a real PostgreSQL, for each family of `--only`:
 * EVM (below), Solana (solana.ts), Sui and Aptos (move.ts). The rows are stored in
 * results/indexer.json (record.ts) and BENCHMARKS.md is rendered again after each family.
 *
 * EVM, on a local anvil chain:
 * 1. Backfill: N transfers over B blocks seeded first, then the indexer started on an empty
 *    database; transfers/s from its /ready to its cursor at the head (every record written).
 * 2. Head latency: one transfer per block mined every 250 ms; per transfer, the time from its
 *    block being mined to its record in the table (unconfirmed), and from the block reaching
 *    the confirmation depth to `confirmed = true`; p50/p99 against poll interval + 1 s.
 */
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  deployCctpChain,
  startAnvil,
  startFakeIris,
  type Anvil,
  type FakeIris,
} from '@ctss/devnet';
import { freePort } from '../child.js';
import { describeMachine } from '../machine.js';
import { REPORT_FILE } from '../paths.js';
import { renderReport } from '../report.js';
import { loadAllRecords } from '../results.js';
import { runMoveBench } from './move.js';
import { parseIndexerOptions, USAGE, type Family, type IndexerBenchOptions } from './options.js';
import {
  backfillTimeoutMs,
  headLatencies,
  pollArrivals,
  startIndexerProcess,
  type RunningIndexer,
} from './process.js';
import {
  latencyMet,
  missing,
  percentiles,
  saveIndexerRecord,
  type IndexerFamilyRecord,
  type IndexerRecord,
} from './record.js';
import { seedTransfers, sendRawBatch, TransferSigner } from './seed-chain.js';
import { runSolanaBench } from './solana.js';

const BLOCK_EVERY_MS = 250;
const log = (line: string) => process.stdout.write(`[bench:indexer] ${line}\n`);

/** A transfer timed at the head: its hash (lower case), block, and when that block was mined. */
interface Sample {
  readonly hash: string;
  readonly block: number;
  readonly minedAt: number;
}

/**
 * The EVM rows: backfill, then head latency (in the feed, and confirmed at the depth), ms, one per
 * transfer read before the deadline.
 *
 * @throws when the indexer process exits or stalls before its cursor reaches the seeded head, or
 *   writes another number of records than transfers.
 */
async function runEvm(o: IndexerBenchOptions): Promise<{
  backfill: IndexerFamilyRecord['backfill'];
  inFeed: number[];
  confirmed: number[];
}> {
  let anvil: Anvil | undefined;
  let iris: FakeIris | undefined;
  let indexer: RunningIndexer | undefined;
  try {
    anvil = await startAnvil(await freePort(), 31_400);
    const chain = await deployCctpChain(anvil.url, 0, 31_400);
    await anvil.rpc('evm_setAutomine', [false]);
    const seedStart = performance.now();
    await seedTransfers(chain, (m, p) => anvil!.rpc(m, p), o.transfers, o.blocks, log);
    const head = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
    log(
      `seeded ${o.transfers} transfers over ${o.blocks} blocks in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (head ${head})`,
    );
    iris = await startFakeIris(0, { 0: anvil.url });
    indexer = await startIndexerProcess({
      adminUrl: o.databaseUrl,
      database: o.database,
      name: 'indexer',
      irisUrl: iris.url,
      env: {
        INDEXER_CHAINS: JSON.stringify([
          {
            name: 'bench',
            domain: 0,
            rpcUrls: [anvil.url],
            transferContracts: [chain.cashmere, chain.cashmereLegacy],
            messageTransmitters: [chain.transmitterV1, chain.transmitterV2],
            tokenMessengers: [chain.messengerV1, chain.messengerV2],
            usdc: chain.usdc,
            startBlock: chain.startBlock,
            confirmations: o.confirmations,
            pollIntervalMs: o.pollMs,
          },
        ]),
      },
    });
    const db = indexer.db;
    const started = performance.now();
    await indexer.waitUntil(
      `its cursor at block ${head}`,
      async () => {
        const r = await db.query<{ n: string }>(
          `select block_number::text as n from indexer_cursors where chain = 'bench'`,
        );
        return Number(r.rows[0]?.n ?? -1) >= head;
      },
      backfillTimeoutMs(o.transfers),
    );
    const seconds = (performance.now() - started) / 1000;
    const written = await indexer.records();
    if (written !== o.transfers) throw new Error(`${written} records for ${o.transfers} transfers`);
    const rate = o.transfers / seconds;
    log(
      `backfill: ${o.transfers} transfers (${o.blocks} blocks) in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} transfers/s`,
    );

    // Head latency: one transfer per block, a block every BLOCK_EVERY_MS.
    const samples: Sample[] = [];
    const minedAt = new Map<number, number>();
    const signer = await TransferSigner.create(chain);
    let block = head;
    const arrivals = pollArrivals(db);
    try {
      const deadline = Date.now() + o.samples * BLOCK_EVERY_MS + 120_000;
      while ((samples.length < o.samples || !arrivals.allArrived(true)) && Date.now() < deadline) {
        const tick = performance.now();
        let hash: string | undefined;
        if (samples.length < o.samples) {
          [hash] = await sendRawBatch(chain.url, [await signer.next(2_000_000n)]);
        }
        await anvil.rpc('evm_mine');
        block++;
        minedAt.set(block, performance.now());
        if (hash) {
          samples.push({ hash: hash.toLowerCase(), block, minedAt: performance.now() });
          arrivals.watch(hash.toLowerCase());
        }
        await sleep(Math.max(0, BLOCK_EVERY_MS - (performance.now() - tick)));
      }
    } finally {
      await arrivals.stop();
    }
    const { inFeed, confirmed } = headLatencies(
      arrivals,
      samples.map((s) => ({
        id: s.hash,
        shownAt: s.minedAt,
        finalAt: minedAt.get(s.block + o.confirmations),
      })),
    );
    return {
      backfill: { transfers: o.transfers, blocks: o.blocks, seconds, transfersPerSecond: rate },
      inFeed,
      confirmed,
    };
  } finally {
    await indexer?.stop();
    await iris?.close();
    await anvil?.stop();
  }
}

/** The log line of one latency: percentiles, max, transfers read of those timed, and the bound. */
function latencyLine(name: string, values: number[], samples: number, boundMs: number): string {
  const p = percentiles(values, samples);
  const lost = missing(p);
  const read =
    lost === 0 ? `${p.n} transfers` : `${p.n} of ${samples} transfers (${lost} never recorded)`;
  return `${name}: p50 ${p.p50.toFixed(0)} ms, p99 ${p.p99.toFixed(0)} ms, max ${(values.length ? Math.max(...values) : NaN).toFixed(0)} ms over ${read} (bound ${boundMs} ms: ${latencyMet(p, boundMs) ? 'met' : 'NOT met'} at p99)`;
}

/**
 * Measures one family's rows.
 *
 * @returns its record, or undefined when the family is left out (its transfer count 0).
 */
async function runFamily(
  family: Family,
  o: IndexerBenchOptions,
): Promise<IndexerFamilyRecord | undefined> {
  const bound = o.pollMs + 1000;
  const machine = await describeMachine();
  const base = { measuredAt: new Date().toISOString(), machine, pollMs: o.pollMs };
  log(`${family}: load average ${machine.loadAtStart}`);
  if (family === 'evm') {
    const r = await runEvm(o);
    log(latencyLine('in feed (unconfirmed) after its block', r.inFeed, o.samples, bound));
    log(latencyLine(`confirmed after depth ${o.confirmations}`, r.confirmed, o.samples, bound));
    return {
      ...base,
      backfill: r.backfill,
      head: {
        boundMs: bound,
        inFeed: percentiles(r.inFeed, o.samples),
        confirmed: percentiles(r.confirmed, o.samples),
        confirmations: o.confirmations,
      },
    };
  }
  if (family === 'solana') {
    if (o.solanaTransfers === 0) return undefined;
    const r = await runSolanaBench(o, log);
    const { boundMs, samples } = r.head;
    log(latencyLine('solana: in feed (pending) after its slot', r.head.inFeed, samples, boundMs));
    log(
      latencyLine(
        'solana: confirmed after its slot is finalized',
        r.head.confirmed,
        samples,
        boundMs,
      ),
    );
    return {
      ...base,
      backfill: r.backfill,
      head: {
        boundMs,
        inFeed: percentiles(r.head.inFeed, samples),
        confirmed: percentiles(r.head.confirmed, samples),
      },
    };
  }
  const transfers = family === 'sui' ? o.suiTransfers : o.aptosTransfers;
  if (transfers === 0) return undefined;
  const r = await runMoveBench(family, transfers, o, log);
  const { boundMs, samples } = r.head;
  log(latencyLine(`${family}: in feed (final) after it appeared`, r.head.inFeed, samples, boundMs));
  return {
    ...base,
    backfill: r.backfill,
    head: { boundMs, inFeed: percentiles(r.head.inFeed, samples) },
  };
}

/**
 * Runs the families of `--only` in order; each family's rows are stored and BENCHMARKS.md is
 * rendered again as soon as it is measured, so a later family's failure keeps them.
 *
 * @throws the first family's failure (the families after it are not run).
 */
async function run(o: IndexerBenchOptions): Promise<void> {
  const stored: Family[] = [];
  for (const family of o.only) {
    const row = await runFamily(family, o);
    if (row === undefined) continue;
    const measured: IndexerRecord = {};
    measured[family] = row;
    const merged = await saveIndexerRecord(measured);
    await writeFile(REPORT_FILE, renderReport(await loadAllRecords(), merged));
    stored.push(family);
    log(`stored ${family}; wrote ${REPORT_FILE}`);
  }
  if (stored.length === 0) log('stored nothing');
}

let options: IndexerBenchOptions;
try {
  options = parseIndexerOptions(process.argv.slice(2), process.env);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
await run(options);
