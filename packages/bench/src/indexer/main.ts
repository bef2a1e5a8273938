/**
 * `pnpm bench:indexer` (packages/bench/README.md "Indexer"): the transfer indexer process
 * (`apps/monitoring-api/dist/bin/indexer.js`) on a local anvil chain and a real PostgreSQL.
 *
 * 1. Backfill: N transfers over B blocks seeded first, then the indexer started on an empty
 *    database; transfers/s from its /ready to its cursor at the head (every record written).
 * 2. Head latency: one transfer per block mined every 250 ms; per transfer, the time from its
 *    block being mined to its record in the table (unconfirmed), and from the block reaching
 *    the confirmation depth to `confirmed = true`; p50/p99 against poll interval + 1 s.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  deployCctpChain,
  startAnvil,
  startFakeIris,
  type Anvil,
  type FakeIris,
} from '@ctss/devnet';
import pg from 'pg';
import { freePort, runNode, startNode, waitForHttp, type Child } from '../child.js';
import { databaseUrl } from '../dataset.js';
import { MONITORING_APP_DIR, RUN_DIR } from '../paths.js';
import { parseIndexerOptions, USAGE, type IndexerBenchOptions } from './options.js';
import { seedTransfers, sendRawBatch, TransferSigner } from './seed-chain.js';
import { runSolanaBench, type SolanaBenchResult } from './solana.js';

const DATABASE = 'ctss_bench_indexer';
const BLOCK_EVERY_MS = 250;
const log = (line: string) => process.stdout.write(`[bench:indexer] ${line}\n`);

/** p-th percentile (0-100) of `values` (nearest rank), ms. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Sample {
  hash: string;
  block: number;
  minedAt: number;
  inAt?: number;
  confirmedAt?: number;
}

async function run(o: IndexerBenchOptions): Promise<void> {
  let anvil: Anvil | undefined;
  let iris: FakeIris | undefined;
  let indexer: Child | undefined;
  const db = new pg.Pool({ connectionString: databaseUrl(o.databaseUrl, DATABASE), max: 2 });
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

    await admin(o.databaseUrl, `drop database if exists ${DATABASE}`);
    await admin(o.databaseUrl, `create database ${DATABASE}`);
    const url = databaseUrl(o.databaseUrl, DATABASE);
    await runNode({
      name: 'indexer-migrate',
      script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'migrate.js'),
      cwd: MONITORING_APP_DIR,
      env: { DATABASE_URL: url },
    });
    iris = await startFakeIris(0, { 0: anvil.url });
    const port = await freePort();
    indexer = await startNode({
      name: 'indexer',
      script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'indexer.js'),
      cwd: MONITORING_APP_DIR,
      env: {
        DATABASE_URL: url,
        PORT: String(port),
        IRIS_URL: iris.url,
        LOG_LEVEL: 'warn',
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
    await waitForHttp(indexer, `http://127.0.0.1:${port}/ready`);
    const started = performance.now();
    for (;;) {
      const r = await db.query<{ n: string }>(
        `select block_number::text as n from indexer_cursors where chain = 'bench'`,
      );
      if (Number(r.rows[0]?.n ?? -1) >= head) break;
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    const written = Number(
      (await db.query<{ n: string }>(`select count(*)::text as n from transactions`)).rows[0]!.n,
    );
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
    const inMs = samples.filter((s) => s.inAt).map((s) => s.inAt! - s.minedAt);
    const confMs = samples
      .filter((s) => s.confirmedAt && minedAt.has(s.block + o.confirmations))
      .map((s) => s.confirmedAt! - minedAt.get(s.block + o.confirmations)!);
    const bound = o.pollMs + 1000;
    const line = (name: string, v: number[]) =>
      `${name}: p50 ${percentile(v, 50).toFixed(0)} ms, p99 ${percentile(v, 99).toFixed(0)} ms, max ${Math.max(...v).toFixed(0)} ms over ${v.length} transfers (bound ${bound} ms: ${percentile(v, 99) <= bound ? 'met' : 'NOT met'} at p99)`;
    if (o.samples > 0) {
      log(line('in feed (unconfirmed) after its block', inMs));
      log(line(`confirmed after depth ${o.confirmations}`, confMs));
    }
    let solana: SolanaBenchResult | undefined;
    if (o.solanaTransfers > 0) {
      solana = await runSolanaBench(o, admin, log);
      if (o.samples > 0) {
        log(line('solana: in feed (pending) after its slot', solana.head.inFeed));
        log(line('solana: confirmed after its slot is finalized', solana.head.confirmed));
      }
    }
    await mkdir(RUN_DIR, { recursive: true });
    const file = path.join(RUN_DIR, `indexer-${o.transfers}.json`);
    await writeFile(
      file,
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          options: { ...o, databaseUrl: undefined },
          backfill: { transfers: o.transfers, blocks: o.blocks, seconds, transfersPerSecond: rate },
          head: {
            boundMs: bound,
            inFeed: { p50: percentile(inMs, 50), p99: percentile(inMs, 99), n: inMs.length },
            confirmed: {
              p50: percentile(confMs, 50),
              p99: percentile(confMs, 99),
              n: confMs.length,
            },
          },
          ...(solana
            ? {
                solana: {
                  backfill: solana.backfill,
                  head: {
                    boundMs: solana.head.boundMs,
                    inFeed: {
                      p50: percentile(solana.head.inFeed, 50),
                      p99: percentile(solana.head.inFeed, 99),
                      n: solana.head.inFeed.length,
                    },
                    confirmed: {
                      p50: percentile(solana.head.confirmed, 50),
                      p99: percentile(solana.head.confirmed, 99),
                      n: solana.head.confirmed.length,
                    },
                  },
                },
              }
            : {}),
        },
        null,
        2,
      )}\n`,
    );
    log(`written ${file}`);
  } finally {
    await indexer?.stop();
    await db.end();
    await iris?.close();
    await anvil?.stop();
    await admin(o.databaseUrl, `drop database if exists ${DATABASE}`).catch(() => undefined);
  }
}

let options: IndexerBenchOptions;
try {
  options = parseIndexerOptions(process.argv.slice(2), process.env);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
await run(options);
