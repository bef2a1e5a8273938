/**
 * `pnpm bench:indexer` (packages/bench/README.md "Indexer"): the transfer indexer process
 * (`apps/monitoring-api/dist/bin/indexer.js`) on a real PostgreSQL, for each family of `--only`:
 * EVM (below), Solana (solana.ts), Sui and Aptos (move.ts). The rows are stored in
 * results/indexer.json (record.ts) and BENCHMARKS.md is rendered again.
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
import { parseIndexerOptions, USAGE, type IndexerBenchOptions } from './options.js';
import { percentile, startIndexerProcess, type RunningIndexer } from './process.js';
import {
  percentiles,
  saveIndexerRecord,
  type IndexerFamilyRecord,
  type IndexerRecord,
} from './record.js';
import { seedTransfers, sendRawBatch, TransferSigner } from './seed-chain.js';
import { runSolanaBench } from './solana.js';

const BLOCK_EVERY_MS = 250;
const log = (line: string) => process.stdout.write(`[bench:indexer] ${line}\n`);

interface Sample {
  hash: string;
  block: number;
  minedAt: number;
  inAt?: number;
  confirmedAt?: number;
}

/** The EVM rows: backfill, then head latency (in the feed, and confirmed at the depth). */
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
    for (;;) {
      const r = await db.query<{ n: string }>(
        `select block_number::text as n from indexer_cursors where chain = 'bench'`,
      );
      if (Number(r.rows[0]?.n ?? -1) >= head) break;
      await sleep(50);
    }
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
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const r = await db.query<{ h: string; c: boolean }>(
          `select source_tx_hash as h, confirmed as c from transactions where block_number > $1`,
          [head],
        );
        const now = performance.now();
        const byHash = new Map(r.rows.map((row) => [row.h, row.c]));
        for (const s of samples) {
          const c = byHash.get(s.hash);
          if (c === undefined) continue;
          s.inAt ??= now;
          if (c) s.confirmedAt ??= now;
        }
        await sleep(20);
      }
    })();
    const deadline = Date.now() + o.samples * BLOCK_EVERY_MS + 120_000;
    while (
      (samples.length < o.samples || samples.some((s) => s.confirmedAt === undefined)) &&
      Date.now() < deadline
    ) {
      const tick = performance.now();
      let hash: string | undefined;
      if (samples.length < o.samples) {
        [hash] = await sendRawBatch(chain.url, [await signer.next(2_000_000n)]);
      }
      await anvil.rpc('evm_mine');
      block++;
      minedAt.set(block, performance.now());
      if (hash) samples.push({ hash: hash.toLowerCase(), block, minedAt: performance.now() });
      await sleep(Math.max(0, BLOCK_EVERY_MS - (performance.now() - tick)));
    }
    polling = false;
    await poller;
    return {
      backfill: { transfers: o.transfers, blocks: o.blocks, seconds, transfersPerSecond: rate },
      inFeed: samples.filter((s) => s.inAt).map((s) => s.inAt! - s.minedAt),
      confirmed: samples
        .filter((s) => s.confirmedAt && minedAt.has(s.block + o.confirmations))
        .map((s) => s.confirmedAt! - minedAt.get(s.block + o.confirmations)!),
    };
  } finally {
    await indexer?.stop();
    await iris?.close();
    await anvil?.stop();
  }
}

/** Runs the families of `--only`, stores their rows and renders BENCHMARKS.md again. */
async function run(o: IndexerBenchOptions): Promise<void> {
  const bound = o.pollMs + 1000;
  const line = (name: string, v: number[]) =>
    `${name}: p50 ${percentile(v, 50).toFixed(0)} ms, p99 ${percentile(v, 99).toFixed(0)} ms, max ${Math.max(...v).toFixed(0)} ms over ${v.length} transfers (bound ${bound} ms: ${percentile(v, 99) <= bound ? 'met' : 'NOT met'} at p99)`;
  const record: IndexerRecord = {};
  for (const family of o.only) {
    const machine = await describeMachine();
    const base = { measuredAt: new Date().toISOString(), machine, pollMs: o.pollMs };
    log(`${family}: load average ${machine.loadAtStart}`);
    if (family === 'evm') {
      const r = await runEvm(o);
      log(line('in feed (unconfirmed) after its block', r.inFeed));
      log(line(`confirmed after depth ${o.confirmations}`, r.confirmed));
      record.evm = {
        ...base,
        backfill: r.backfill,
        head: {
          boundMs: bound,
          inFeed: percentiles(r.inFeed),
          confirmed: percentiles(r.confirmed),
          confirmations: o.confirmations,
        },
      };
    } else if (family === 'solana') {
      if (o.solanaTransfers === 0) continue;
      const r = await runSolanaBench(o, log);
      log(line('solana: in feed (pending) after its slot', r.head.inFeed));
      log(line('solana: confirmed after its slot is finalized', r.head.confirmed));
      record.solana = {
        ...base,
        backfill: r.backfill,
        head: {
          boundMs: r.head.boundMs,
          inFeed: percentiles(r.head.inFeed),
          confirmed: percentiles(r.head.confirmed),
        },
      };
    } else {
      const transfers = family === 'sui' ? o.suiTransfers : o.aptosTransfers;
      if (transfers === 0) continue;
      const r = await runMoveBench(family, transfers, o, log);
      log(line(`${family}: in feed (final) after it appeared`, r.head.inFeed));
      record[family] = {
        ...base,
        backfill: r.backfill,
        head: { boundMs: r.head.boundMs, inFeed: percentiles(r.head.inFeed) },
      };
    }
  }
  const merged = await saveIndexerRecord(record);
  await writeFile(REPORT_FILE, renderReport(await loadAllRecords(), merged));
  log(`stored ${Object.keys(record).join(', ') || 'nothing'}; wrote ${REPORT_FILE}`);
}

let options: IndexerBenchOptions;
try {
  options = parseIndexerOptions(process.argv.slice(2), process.env);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
await run(options);
