/**
 * `pnpm bench`: builds the apps, loads the benchmark dataset, runs the hello-world baseline and
 * every workload of workloads.ts against the real services, then writes BENCHMARKS.md and prints the
 * table. See options.ts for the flags and BENCHMARKS.md for the method.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { createClient } from 'redis';
import { applyBaselines } from './baselines.js';
import type { CpuPerRequest } from './cpu.js';
import { markIndexedThroughNow } from './closed-windows.js';
import { ensureDataset, pickParams } from './dataset.js';
import { measureDbFloor } from './db-floor.js';
import type { LoadResult, RequestPlan } from './load.js';
import { describeMachine, loadAverage } from './machine.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { median } from './median.js';
import { measurePointsJob } from './points/measure.js';
import { REPO_ROOT, REPORT_FILE } from './paths.js';
import { preparePlan } from './prepare.js';
import { loadIndexerRecord } from './indexer/record.js';
import { judge, judgeFanout, renderReport, runSection } from './report.js';
import { foldRounds } from './rounds.js';
import {
  loadAllRecords,
  loadRecord,
  saveRecord,
  type FanoutRecord,
  type PointsJobRecord,
  type RunRecord,
  type SseFanoutRecord,
  type WorkloadRecord,
} from './results.js';
import { sampleRss } from './rss.js';
import { loadWithUsage, toMb } from './usage.js';
import {
  startGasQuoteApi,
  startHelloWorld,
  startMonitoringApi,
  type RunningService,
} from './services.js';
import { databaseUrl } from './dataset.js';
import { measureSseFanout } from './sse.js';
import { measureFanout } from './websocket.js';
import {
  CLOSED_WINDOW_WALK,
  CLOSED_WINDOW_WALK_GZIP,
  HELLO_WORLD_32,
  httpWorkloads,
  PLACEHOLDER_PARAMS,
  REFERENCE_TRANSACTIONS,
  type HttpWorkload,
} from './workloads.js';

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const WARMUP_SECONDS = 1;
/**
 * Seconds of the hello-world measured between HTTP workloads; each workload's ratio uses the mean
 * of the one before and the one after it. On this machine hello-world itself ranged from 2,000 to
 * 8,900 req/s within one run (host load), so a ratio against a baseline measured minutes earlier
 * says more about the host than about the API.
 */
const PAIRED_HELLO_SECONDS = 5;
const FANOUT_ROUNDS = 5;

async function buildApps(): Promise<void> {
  log('building the apps (turbo)');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'pnpm',
      [
        'exec',
        'turbo',
        'run',
        'build',
        '--filter=@ctss/gas-quote-api',
        '--filter=@ctss/monitoring-api',
        '--output-logs=errors-only',
      ],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
      },
    );
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`build failed with exit code ${code}`)),
    );
  });
}

/**
 * Measures `w` on `service` with `plan` (its own, or as prepared); the ratio is against
 * `baselineRps` until {@link applyBaselines} sets the final one.
 */
async function measure(
  w: HttpWorkload,
  service: RunningService,
  opts: BenchOptions,
  baselineRps: number,
  plan: RequestPlan = w.plan,
): Promise<WorkloadRecord> {
  const { r, cpu, peakRssMb } = await loadWithUsage(
    service,
    plan,
    w.connections,
    opts.duration,
    WARMUP_SECONDS,
  );
  const record: WorkloadRecord = {
    name: w.name,
    description: w.description,
    service: w.service,
    group: w.group,
    connections: w.connections,
    durationSeconds: opts.duration,
    rps: r.rps,
    ratio: baselineRps > 0 ? r.rps / baselineRps : 0,
    helloRps: baselineRps,
    baseline: w.baseline,
    p50: r.p50,
    p99: r.p99,
    averageMs: r.average,
    peakRssMb,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses: r.statuses,
    expectStatus: w.expectStatus,
    bytesPerResponse: r.bytesPerResponse,
    cpu,
    measuredAt: new Date().toISOString(),
  };
  // A feed workload's database floor is measured next, and judged with it (withFloor).
  const v = judge(record, { floorPending: true });
  log(
    `${w.name}: ${Math.round(r.rps)} req/s (${record.ratio.toFixed(2)}x of ${w.baseline ?? 'hello-world'}), p50 ${r.p50} ms, p99 ${r.p99} ms, RSS ${peakRssMb ?? 'n/a'} MB, ${Math.round(r.bytesPerResponse ?? 0)} bytes/response${w.group === 'baseline' ? '' : v.pass ? ' PASS' : ` FAIL: ${v.misses.join('; ')}`}`,
  );
  return record;
}

async function helloWorld(
  opts: BenchOptions,
  workload: HttpWorkload,
): Promise<LoadResult & { peakRssMb: number | undefined; cpu: CpuPerRequest | undefined }> {
  const hello = await startHelloWorld();
  try {
    const { r, cpu, peakRssMb } = await loadWithUsage(
      hello,
      workload.plan,
      workload.connections,
      opts.duration,
      WARMUP_SECONDS,
    );
    log(
      `${workload.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, RSS ${peakRssMb ?? 'n/a'} MB, ${cpu?.apiUs ?? 'n/a'} us CPU/request`,
    );
    return { ...r, peakRssMb, cpu };
  } finally {
    await hello.child.stop();
  }
}

async function run(opts: BenchOptions): Promise<void> {
  const machine = await describeMachine();
  log(
    `machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load ${machine.loadAtStart}, open files ${machine.openFilesLimit ?? 'n/a'}, system call ${machine.systemCallMicros ?? 'n/a'} us`,
  );
  const selected = (name: string) =>
    opts.only === undefined ||
    name === 'hello-world' ||
    name === HELLO_WORLD_32 ||
    opts.only.test(name);
  const listed = httpWorkloads(PLACEHOLDER_PARAMS);
  // A selected workload brings the baseline its ratio is taken against.
  const baselinesOfSelected = new Set(
    listed.filter((w) => selected(w.name) && w.baseline).map((w) => w.baseline),
  );
  const wanted = listed
    .filter((w) => selected(w.name) || baselinesOfSelected.has(w.name))
    .map((w) => w.name);
  const wantFanout = selected('ws-fanout');
  const wantSseFanout = selected('sse-fanout');
  const wantPointsJob = selected('points-job');
  // The same-bytes baseline captures its page from the monitoring API.
  const needMonitoring = listed.some(
    (w) => (w.service === 'monitoring' || w.service === 'same-bytes') && wanted.includes(w.name),
  );
  // The latency floor only matters next to the 32-connection (monitoring) workloads.
  if (!needMonitoring) wanted.splice(wanted.indexOf(HELLO_WORLD_32), 1);
  const needGas = wantFanout || listed.some((w) => w.service === 'gas' && wanted.includes(w.name));

  if (!opts.skipBuild) await buildApps();

  let dataset: Awaited<ReturnType<typeof ensureDataset>> | undefined;
  let params = PLACEHOLDER_PARAMS;
  if (needMonitoring) {
    dataset = await ensureDataset({
      adminUrl: opts.databaseUrl,
      database: opts.benchDatabase,
      size: { transactions: opts.transactions, users: opts.users },
      skipSeed: opts.skipSeed,
      reseed: opts.reseed,
      log,
    });
    params = await pickParams(dataset.url);
    if (wanted.includes(CLOSED_WINDOW_WALK) || wanted.includes(CLOSED_WINDOW_WALK_GZIP))
      params = { ...params, indexedChains: await markIndexedThroughNow(dataset.url) };
    log(
      `params: ${params.deepCursors.length} deep cursors, ${params.senders.length} senders, ${params.lookups.length} lookups, ${params.windows.length} windows, ${params.searches.length} searches`,
    );
  }
  const workloads = httpWorkloads(params).filter((w) => wanted.includes(w.name));
  const helloWorkload = workloads.find((w) => w.name === 'hello-world')!;
  const floorWorkload = workloads.find((w) => w.name === HELLO_WORLD_32);
  const date = new Date().toISOString();
  const redisPrefix = `ctss-bench-${process.pid}-${Date.now()}:`;
  const serviceOpts = {
    redisUrl: opts.redisUrl,
    redisPrefix,
    cpuProf: opts.cpuProf,
    extraEnv: opts.env,
  };

  const helloFirst = await helloWorld(opts, helloWorkload);
  const floor = floorWorkload ? await helloWorld(opts, floorWorkload) : undefined;
  const helloRps = [helloFirst.rps];
  const mean = () => helloRps.reduce((a, b) => a + b, 0) / helloRps.length;
  const pairedOpts = { ...opts, duration: Math.min(opts.duration, PAIRED_HELLO_SECONDS) };
  /** The latest req/s of each workload, for the progress lines of the ones judged against it. */
  const latestRps = new Map<string, number>();
  /** Measures `w` after a short hello-world (the hello-world after it is the next one's). */
  const measurePaired = async (w: HttpWorkload, service: RunningService, plan?: RequestPlan) => {
    const hello = await helloWorld(pairedOpts, helloWorkload);
    helloRps.push(hello.rps);
    const baselineRps = w.baseline === undefined ? hello.rps : (latestRps.get(w.baseline) ?? 0);
    const record = await measure(w, service, opts, baselineRps, plan);
    latestRps.set(w.name, record.rps);
    return record;
  };
  /** A feed workload's database floor, measured just after it (db-floor.ts). */
  const withFloor = async (w: HttpWorkload, record: WorkloadRecord, plan: RequestPlan) => {
    if (!dataset || opts.noFloor || w.group !== 'feed' || !w.name.startsWith('feed-'))
      return record;
    const f = await measureDbFloor({
      databaseUrl: dataset.url,
      plan,
      connections: w.connections,
      durationSeconds: opts.duration,
      warmupSeconds: WARMUP_SECONDS,
    });
    const floor = { rps: f.rps, ratio: record.rps / f.rps, p50: f.p50, p99: f.p99, cpu: f.cpu };
    const floored = { ...record, floor };
    const v = judge(floored);
    log(
      `  ${w.name} database floor: ${Math.round(f.rps)} statements/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.cpu?.postgresUs ?? 'n/a'} us PostgreSQL CPU/statement; the workload ${floor.ratio.toFixed(2)}x of it${v.pass ? ' PASS' : ` FAIL: ${v.misses.join('; ')}`}`,
    );
    return floored;
  };
  /** Prepares `w` against the monitoring API and measures it there, or on the same-bytes server. */
  const measureMonitoring = async (w: HttpWorkload, monitoring: RunningService) => {
    const { plan, page } = await preparePlan(w.prepare, w.plan, monitoring.baseUrl, log);
    if (w.service !== 'same-bytes')
      return withFloor(w, await measurePaired(w, monitoring, plan), plan);
    const server = await startHelloWorld(page);
    try {
      return await measurePaired(w, server, plan);
    } finally {
      await server.child.stop();
    }
  };
  const records: WorkloadRecord[] = [];
  let fanout: FanoutRecord | undefined;
  const sseFanout = wantSseFanout ? await runSseFanout(serviceOpts, opts) : undefined;

  // Each round starts the APIs afresh (a process can be slower than another for its whole life);
  // the fan-out runs in the first round only.
  for (let round = 1; round <= opts.rounds; round++) {
    if (opts.rounds > 1) log(`round ${round} of ${opts.rounds}`);
    if (needGas) {
      const gas = await startGasQuoteApi(serviceOpts);
      try {
        for (const w of workloads.filter((x) => x.service === 'gas'))
          records.push(await measurePaired(w, gas));
        if (wantFanout && round === 1)
          fanout = await runFanout(gas, opts, redisPrefix, machine.openFilesLimit);
      } finally {
        await gas.child.stop();
      }
    }
    if (needMonitoring && dataset) {
      const url = dataset.url;
      const start = (env: Readonly<Record<string, string>> = {}) =>
        startMonitoringApi({ ...serviceOpts, extraEnv: { ...env, ...opts.env }, databaseUrl: url });
      const monitoring = await start();
      try {
        for (const w of workloads.filter(
          (x) => x.service === 'monitoring' || x.service === 'same-bytes',
        )) {
          if (w.env === undefined) {
            records.push(await measureMonitoring(w, monitoring));
            continue;
          }
          // A workload with an environment of its own runs on an API started for it.
          const own = await start(w.env);
          try {
            records.push(await measureMonitoring(w, own));
          } finally {
            await own.child.stop();
          }
        }
      } finally {
        await monitoring.child.stop();
      }
    }
  }
  // Once per run, after the HTTP rounds (its steps are medians of their own runs).
  const pointsJob = wantPointsJob ? await runPointsJob(opts) : undefined;
  if (records.length > 0) helloRps.push((await helloWorld(opts, helloWorkload)).rps);
  const measured = foldRounds(records.length > 0 ? applyBaselines(records, helloRps) : []);
  /** A baseline's record: measured once, its ratio against the run's mean hello-world. */
  const baselineRecord = (
    w: HttpWorkload,
    r: Awaited<ReturnType<typeof helloWorld>>,
    rps: number,
  ): WorkloadRecord => ({
    name: w.name,
    description: w.description,
    service: 'hello',
    group: 'baseline',
    connections: w.connections,
    durationSeconds: opts.duration,
    rps,
    ratio: rps / mean(),
    helloRps: mean(),
    p50: r.p50,
    p99: r.p99,
    averageMs: r.average,
    peakRssMb: r.peakRssMb,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses: r.statuses,
    cpu: r.cpu,
    measuredAt: date,
  });
  const baselines = [baselineRecord(helloWorkload, helloFirst, mean())];
  if (floorWorkload && floor) baselines.push(baselineRecord(floorWorkload, floor, floor.rps));

  const runRecord: RunRecord = {
    transactions: dataset?.size.transactions ?? opts.transactions,
    users: dataset?.size.users ?? opts.users,
    mainnetRows: needMonitoring ? params.mainnetRows : undefined,
    seedSeconds: dataset?.seedSeconds,
    machine,
    date,
    note:
      [
        opts.note,
        Object.keys(opts.env).length > 0
          ? `extra service environment: ${Object.entries(opts.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : undefined,
      ]
        .filter(Boolean)
        .join('; ') || undefined,
    helloRps,
    pairedHelloSeconds: PAIRED_HELLO_SECONDS,
    rounds: opts.rounds,
    partial: opts.only !== undefined,
    workloads: [...baselines, ...measured],
    fanout,
    sseFanout,
    pointsJob,
  };
  const reference = await loadRecord(REFERENCE_TRANSACTIONS);
  if (opts.noWrite) {
    process.stdout.write(
      `\n${runSection(runRecord, runRecord.transactions === REFERENCE_TRANSACTIONS ? undefined : reference).join('\n')}\n`,
    );
    return;
  }
  const merged = await saveRecord(runRecord);
  await writeFile(REPORT_FILE, renderReport(await loadAllRecords(), await loadIndexerRecord()));
  process.stdout.write(
    `\n${runSection(merged, merged.transactions === REFERENCE_TRANSACTIONS ? undefined : reference).join('\n')}\n`,
  );
  log(`wrote ${REPORT_FILE}`);
}

async function runFanout(
  gas: RunningService,
  opts: BenchOptions,
  redisPrefix: string,
  openFiles: number | undefined,
): Promise<FanoutRecord> {
  let clients = opts.wsClients;
  if (openFiles !== undefined && openFiles < clients + 1000) {
    clients = Math.max(1, openFiles - 1000);
    log(
      `ws: open-files limit ${openFiles} is too low for ${opts.wsClients} clients; using ${clients}`,
    );
  }
  const redis = createClient({ url: opts.redisUrl });
  await redis.connect();
  let rss: Awaited<ReturnType<typeof sampleRss>> | undefined;
  // The update channel and the message come from the running API: the one channel it subscribes
  // to under this run's key prefix, and the tokenPrices snapshot it sent the clients.
  let update: { channel: string; message: string } | undefined;
  try {
    rss = await sampleRss([gas.child.pid]);
    const result = await measureFanout({
      url: `${gas.baseUrl.replace(/^http/, 'ws')}/subscribe`,
      clients,
      rounds: FANOUT_ROUNDS,
      log,
      onConnected: async (snapshot) => {
        const channels = await redis.PUBSUB_CHANNELS(`${redisPrefix}gas:*`);
        const message = snapshot.get('tokenPrices');
        if (channels.length !== 1 || !channels[0] || !message)
          throw new Error(
            `ws: expected one update channel under ${redisPrefix}gas: and a tokenPrices snapshot, found channels [${channels.join(', ')}], snapshot [${[...snapshot.keys()].join(', ')}]`,
          );
        update = { channel: channels[0], message };
      },
      publish: async () => {
        await redis.publish(update!.channel, update!.message);
      },
    });
    const record: FanoutRecord = {
      ...result,
      peakRssMb: toMb(await rss.stop()),
      measuredAt: new Date().toISOString(),
    };
    rss = undefined;
    const v = judgeFanout(record);
    log(
      `ws-fanout: median ${record.medianLastMs.toFixed(1)} ms, worst ${record.maxLastMs.toFixed(1)} ms, RSS ${record.peakRssMb ?? 'n/a'} MB ${v.pass ? 'PASS' : `FAIL: ${v.misses.join('; ')}`}`,
    );
    return record;
  } finally {
    await rss?.stop();
    redis.destroy();
  }
}

/** Streams of the live-feed fan-out and its insert rounds. */
const SSE_CLIENTS = 1000;
const SSE_ROUNDS = 100;

/** The `role` of the live feed in an API's `/health` (docs/api.md "Live feed (Server-Sent Events)"). */
async function streamRole(baseUrl: string): Promise<string | undefined> {
  const body = (await (await fetch(`${baseUrl}/health`)).json()) as { stream?: { role?: string } };
  return body.stream?.role;
}

/**
 * The live-feed fan-out on a database of its own (the API migrates it at start; dropped after):
 * {@link SSE_CLIENTS} streams, {@link SSE_ROUNDS} inserts. Two API replicas share the Redis:
 * the first takes the fan-out lease and LISTENs, the streams are on the second, a follower, so
 * every event goes through Redis (docs/decisions.md "D200. Live feed: one listener, fanned out
 * through Redis").
 *
 * @throws Error when the second API is not a follower.
 */
async function runSseFanout(
  serviceOpts: Omit<Parameters<typeof startMonitoringApi>[0], 'databaseUrl'>,
  opts: BenchOptions,
): Promise<SseFanoutRecord> {
  const name = `ctss_bench_sse_${process.pid}`;
  const admin = new pg.Client({ connectionString: opts.databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = databaseUrl(opts.databaseUrl, name);
  let leader: RunningService | undefined;
  let api: RunningService | undefined;
  let rss: Awaited<ReturnType<typeof sampleRss>> | undefined;
  try {
    const apiOpts = {
      ...serviceOpts,
      databaseUrl: url,
      extraEnv: {
        STREAM_MAX_CLIENTS: String(SSE_CLIENTS * 2),
        STREAM_MAX_CLIENTS_PER_ADDRESS: String(SSE_CLIENTS * 2),
        // Every stream comes from this one address.
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(SSE_CLIENTS * 2),
        ...serviceOpts.extraEnv,
      },
    };
    leader = await startMonitoringApi(apiOpts);
    api = await startMonitoringApi(apiOpts);
    const roles = [await streamRole(leader.baseUrl), await streamRole(api.baseUrl)];
    if (roles.join() !== 'leader,follower')
      throw new Error(`sse-fanout: expected a leader and a follower API, got ${roles.join(', ')}`);
    rss = await sampleRss([api.child.pid]);
    const result = await measureSseFanout({
      baseUrl: api.baseUrl,
      databaseUrl: url,
      clients: SSE_CLIENTS,
      rounds: SSE_ROUNDS,
      log,
    });
    const record: SseFanoutRecord = {
      ...result,
      via: 'redis',
      peakRssMb: toMb(await rss.stop()),
      measuredAt: new Date().toISOString(),
    };
    rss = undefined;
    log(
      `sse-fanout (through Redis, streams on the follower): insert -> last of ${record.connected} streams p50 ${record.p50LastMs.toFixed(1)} ms, p99 ${record.p99LastMs.toFixed(1)} ms (commit p50 ${record.p50CommitMs.toFixed(1)} ms), RSS ${record.peakRssMb ?? 'n/a'} MB`,
    );
    return record;
  } finally {
    await rss?.stop();
    await api?.child.stop();
    await leader?.child.stop();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * The points and rank job's cost (points/measure.ts) at the run's size: `--transactions` records
 * from `--users` senders, 1,000 changed records per incremental step.
 */
async function runPointsJob(opts: BenchOptions): Promise<PointsJobRecord> {
  const loadAtStart = loadAverage();
  const result = await measurePointsJob({
    adminUrl: opts.databaseUrl,
    transfers: opts.transactions,
    wallets: opts.users,
    changed: 1_000,
    log,
  });
  log(
    `points-job: full rebuild ${median(result.rebuildSeconds).toFixed(2)} s, incremental step ${median(result.incrementalSeconds).toFixed(2)} s (medians of 3)`,
  );
  return { ...result, measuredAt: new Date().toISOString(), loadAtStart };
}

async function main(): Promise<void> {
  let opts: BenchOptions | 'help';
  try {
    opts = parseOptions(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (opts === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (opts.renderOnly) {
    await writeFile(REPORT_FILE, renderReport(await loadAllRecords(), await loadIndexerRecord()));
    log(`wrote ${REPORT_FILE}`);
    return;
  }
  await run(opts);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
