/**
 * `pnpm --filter @ctss/bench gas-profile <cpu|alloc> [workload] [seconds] [top]`: where the gas
 * quote API's time or memory goes under one of the suite's gas workloads (default
 * `quote-ed25519`), per request and grouped by package (packages/bench/README.md "Tools").
 * `cpu` runs the API with --cpu-prof and sums the profile's self time; `alloc` connects to its
 * inspector and samples every allocation, including the objects garbage collection has already
 * freed (HeapProfiler.startSampling with both include flags), so the figures are bytes allocated
 * per request, not bytes kept. Both instruments slow the process: compare shares within one
 * profile, not its req/s with a suite run. Redis at REDIS_URL (default the local one).
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { freePort } from '../child.js';
import { runLoad } from '../load.js';
import { REPO_ROOT } from '../paths.js';
import { startGasQuoteApi } from '../services.js';
import { httpWorkloads, PLACEHOLDER_PARAMS } from '../workloads.js';

const USAGE = 'usage: gas-profile <cpu|alloc> [workload] [seconds] [top]';

/** A V8 call frame (Chrome DevTools Protocol `Runtime.CallFrame`); lineNumber 0-based. */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
/** A node of a sampled heap profile (`HeapProfiler.SamplingHeapProfileNode`); selfSize bytes. */
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}
/** A `.cpuprofile` (`Profiler.Profile`); timeDeltas in microseconds. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  samples: number[];
  timeDeltas: number[];
}

/** Sends Chrome DevTools Protocol commands over the inspector's WebSocket on `port`. */
async function inspector(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const pending = new Map<number, (reply: { result: unknown }) => void>();
  let nextId = 0;
  socket.on('message', (data: Buffer) => {
    const reply = JSON.parse(data.toString('utf8')) as { id: number; result: unknown };
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  return {
    call: (method: string, params: object = {}) =>
      new Promise<{ result: unknown }>((resolve) => {
        pending.set(++nextId, resolve);
        socket.send(JSON.stringify({ id: nextId, method, params }));
      }),
    close: () => socket.close(),
  };
}

const repoPrefix = `file://${REPO_ROOT}/`;
/** `node_modules/.pnpm/<name>@<version>...` -> name, `node:x` as is, this repository's files by folder. */
function packageOf({ url, functionName }: CallFrame): string {
  const pnpm = /node_modules\/\.pnpm\/(@?[^@/]+(?:\+[^@/]+)?)@/.exec(url);
  if (pnpm) return pnpm[1]!;
  if (!url) return functionName;
  if (url.startsWith('node:')) return url;
  return `own:${url.replace(repoPrefix, '').split('/').slice(0, 2).join('/')}`;
}
const frameOf = ({ functionName, url, lineNumber }: CallFrame) =>
  `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(repoPrefix, '')}:${lineNumber + 1}`;
const add = (map: Map<string, number>, key: string, value: number) =>
  map.set(key, (map.get(key) ?? 0) + value);

async function main(): Promise<void> {
  const [mode, name = 'quote-ed25519', secondsArg = '10', topArg = '30'] = process.argv.slice(2);
  if (mode !== 'cpu' && mode !== 'alloc') throw new Error(USAGE);
  const seconds = Number(secondsArg);
  const top = Number(topArg);
  const workload = httpWorkloads(PLACEHOLDER_PARAMS).find(
    (w) => w.service === 'gas' && w.name === name,
  );
  if (!workload) throw new Error(`no gas workload ${name}`);

  /** Prints the `top` largest entries of `totals` per request and as a share of `sum`. */
  const print = (
    title: string,
    unit: string,
    totals: Map<string, number>,
    requests: number,
    sum: number,
  ) => {
    console.log(`--- ${title}`);
    for (const [key, value] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${(value / requests).toFixed(1).padStart(8)} ${unit}  ${((100 * value) / sum).toFixed(1).padStart(5)} %  ${key}`,
      );
  };

  const profileDir = await mkdtemp(path.join(tmpdir(), 'gas-profile-'));
  const inspectPort = await freePort();
  const service = await startGasQuoteApi(
    {
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      redisPrefix: `profile-${process.pid}:`,
      cpuProf: false,
      extraEnv: {},
    },
    {
      nodeFlags:
        mode === 'cpu'
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
          : [`--inspect=127.0.0.1:${inspectPort}`],
    },
  );
  const drive = (durationSeconds: number, warmupSeconds: number) =>
    runLoad({
      baseUrl: service.baseUrl,
      plan: workload.plan,
      connections: workload.connections,
      durationSeconds,
      warmupSeconds,
    });

  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  if (mode === 'alloc') {
    await drive(3, 1);
    const session = await inspector(inspectPort);
    await session.call('HeapProfiler.enable');
    await session.call('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const requests = (await drive(seconds, 0)).total;
    const { result } = await session.call('HeapProfiler.stopSampling');
    session.close();
    await service.child.stop();
    let sum = 0;
    const walk = (node: HeapNode): void => {
      sum += node.selfSize;
      add(byPackage, packageOf(node.callFrame), node.selfSize);
      add(byFunction, frameOf(node.callFrame), node.selfSize);
      node.children.forEach(walk);
    };
    walk((result as { profile: { head: HeapNode } }).profile.head);
    console.log(
      `${name}: ${requests} requests, ${(sum / requests).toFixed(0)} bytes allocated per request`,
    );
    print('by package', 'B', byPackage, requests, sum);
    print('by function', 'B', byFunction, requests, sum);
    return;
  }
  const requests = (await drive(seconds, 2)).total;
  await service.child.stop();
  const [file] = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile written to ${profileDir}`);
  const profile = JSON.parse(await readFile(path.join(profileDir, file), 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  let busy = 0;
  for (const [id, micros] of selfTime) {
    const callFrame = nodes.get(id)!.callFrame;
    if (callFrame.functionName === '(idle)') continue;
    busy += micros;
    add(byPackage, packageOf(callFrame), micros);
    add(byFunction, frameOf(callFrame), micros);
  }
  // The profile spans start-up and warm-up too, so per-request figures are shares of the busy
  // time spread over the measured requests: an upper bound, for comparing parts.
  console.log(
    `${name}: ${requests} requests measured, ${(busy / 1e6).toFixed(2)} s busy in the profile`,
  );
  print('by package', 'us', byPackage, requests, busy);
  print('by function', 'us', byFunction, requests, busy);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
