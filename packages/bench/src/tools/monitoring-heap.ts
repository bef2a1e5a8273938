/**
 * `pnpm --filter @ctss/bench monitoring-heap [workloads-regexp] [seconds] [top] [node flags]`: what
 * holds the monitoring API's memory after the suite's monitoring workloads (default every `feed-`
 * and `stats-` workload and the leaderboards, 5 s each) on the benchmark database (BENCH_DATABASE,
 * default ctss_bench, loaded by `pnpm bench` first; DATABASE_URL the server, REDIS_URL). The
 * API starts with the suite's node flags (services.ts), or with `node flags` (one argument,
 * space-separated, `-` for none) to compare V8 settings.
 *
 * After each workload it prints VmRSS / VmHWM and the V8 heap the API reports on its own
 * `/metrics` (prom-client: committed size of the new and old spaces, used heap, external memory);
 * at the end, the largest value of each seen after any workload.
 *
 * The API runs with `--heapsnapshot-signal=SIGUSR2`; after the load it prints its VmRSS / VmHWM
 * and takes a heap snapshot (written by V8 into a temporary directory), then prints the live heap
 * by owner: self sizes summed by node type and by constructor or string class, the `top` largest,
 * with the snapshot's total. What RSS holds beyond the snapshot is the V8 heap's free space, code,
 * and memory outside the heap (Buffers' backing stores, zlib and brotli contexts, the allocator).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrl, pickParams } from '../dataset.js';
import { runLoad } from '../load.js';
import { preparePlan } from '../prepare.js';
import { readMemory } from '../rss.js';
import { nodeFlagsArgument, startMonitoringApi } from '../services.js';
import { httpWorkloads } from '../workloads.js';

/** The parts of a `.heapsnapshot` this tool reads (V8 heap snapshot JSON). */
interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The V8 heap figures of the API's `/metrics` (prom-client default metrics), bytes by name. */
async function heapMetrics(baseUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const wanted: [string, RegExp][] = [
    ['heap total', /^\w*nodejs_heap_size_total_bytes (\d+)/m],
    ['heap used', /^\w*nodejs_heap_size_used_bytes (\d+)/m],
    ['new space', /^\w*nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m],
    ['old space', /^\w*nodejs_heap_space_size_total_bytes\{space="old"\} (\d+)/m],
    ['large objects', /^\w*nodejs_heap_space_size_total_bytes\{space="large_object"\} (\d+)/m],
    ['external', /^\w*nodejs_external_memory_bytes (\d+)/m],
  ];
  const figures = new Map<string, number>();
  for (const [name, pattern] of wanted) {
    const match = pattern.exec(text);
    if (match?.[1]) figures.set(name, Number(match[1]));
  }
  return figures;
}

/**
 * Self sizes of a snapshot summed by `type` and by `type:name` (names of strings folded), and the
 * largest single strings (self size, first 80 characters: module sources, SQL texts, bodies).
 */
export function heapByOwner(snapshot: HeapSnapshot): {
  total: number;
  byType: Map<string, number>;
  byName: Map<string, number>;
  largestStrings: [string, number][];
} {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byType = new Map<string, number>();
  const byName = new Map<string, number>();
  let total = 0;
  const largestStrings: [string, number][] = [];
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? '?';
    const size = snapshot.nodes[i + sizeAt]!;
    total += size;
    byType.set(type, (byType.get(type) ?? 0) + size);
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? '(strings)'
        : (snapshot.strings[snapshot.nodes[i + nameAt]!] ?? '?').slice(0, 60);
    const key = `${type}: ${name}`;
    byName.set(key, (byName.get(key) ?? 0) + size);
    if (type === 'string' && size >= 64 * 1024) {
      const text = (snapshot.strings[snapshot.nodes[i + nameAt]!] ?? '').slice(0, 80);
      largestStrings.push([text.replace(/\s+/g, ' '), size]);
    }
  }
  largestStrings.sort((a, b) => b[1] - a[1]);
  return { total, byType, byName, largestStrings };
}

async function main(): Promise<void> {
  const [pattern = '^(feed-|stats-|leaderboard)', secondsText = '5', topText = '25', flags] =
    process.argv.slice(2);
  const seconds = Number(secondsText);
  const top = Number(topText);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = databaseUrl(adminUrl, process.env.BENCH_DATABASE ?? 'ctss_bench');
  const params = await pickParams(url);
  const workloads = httpWorkloads(params).filter(
    (w) => w.service === 'monitoring' && w.env === undefined && new RegExp(pattern).test(w.name),
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'monitoring-heap-'));
  const service = await startMonitoringApi({
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: `heap-${process.pid}:`,
    cpuProf: false,
    extraEnv: {},
    databaseUrl: url,
    nodeFlags: [
      ...nodeFlagsArgument(flags),
      '--heapsnapshot-signal=SIGUSR2',
      `--diagnostic-dir=${dir}`,
    ],
  });
  const peaks = new Map<string, number>();
  try {
    console.log(`started: ${JSON.stringify(await readMemory(service.child.pid))}`);
    for (const w of workloads) {
      const { plan } = await preparePlan(w.prepare, w.plan, service.baseUrl, () => undefined);
      const r = await runLoad({
        baseUrl: service.baseUrl,
        plan,
        connections: w.connections,
        durationSeconds: seconds,
        warmupSeconds: 0,
      });
      const memory = await readMemory(service.child.pid);
      const heap = await heapMetrics(service.baseUrl);
      for (const [name, value] of heap) peaks.set(name, Math.max(peaks.get(name) ?? 0, value));
      console.log(
        `${w.name}: ${Math.round(r.rps)} req/s; VmRSS ${mb(memory?.rss ?? 0)}, VmHWM ${mb(memory?.hwm ?? 0)}; ${[...heap].map(([k, v]) => `${k} ${mb(v)}`).join(', ')}`,
      );
    }
    console.log(
      `--- largest after any workload: ${[...peaks].map(([k, v]) => `${k} ${mb(v)}`).join(', ')}; VmHWM ${mb((await readMemory(service.child.pid))?.hwm ?? 0)}`,
    );
    process.kill(service.child.pid, 'SIGUSR2');
    let file: string | undefined;
    for (let i = 0; i < 600 && file === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const files = (await readdir(dir)).filter((f) => f.endsWith('.heapsnapshot'));
      // The file is complete once its JSON closes.
      for (const f of files) {
        const text = await readFile(path.join(dir, f), 'utf8');
        if (text.trimEnd().endsWith('}')) file = path.join(dir, f);
      }
    }
    if (file === undefined) throw new Error('no heap snapshot written');
    const { total, byType, byName, largestStrings } = heapByOwner(
      JSON.parse(await readFile(file, 'utf8')) as HeapSnapshot,
    );
    console.log(`--- live heap (snapshot): ${mb(total)}`);
    for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1]))
      console.log(`${mb(size).padStart(10)}  ${type}`);
    console.log(`--- the ${top} largest owners (type: constructor or class)`);
    for (const [name, size] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${mb(size).padStart(10)}  ${name}`);
    const big = largestStrings.reduce((sum, [, size]) => sum + size, 0);
    console.log(
      `--- strings of 64 KiB or more: ${largestStrings.length}, ${mb(big)}; the ${top} largest`,
    );
    for (const [text, size] of largestStrings.slice(0, top))
      console.log(`${mb(size).padStart(10)}  ${JSON.stringify(text)}`);
  } finally {
    await service.child.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
