// Where the gas quote API's time or memory goes under one of the suite's gas workloads, per request
// and grouped by package: `cpu` mode runs it with --cpu-prof and sums the profile's self time;
// `alloc` mode connects to its inspector and samples every allocation, including the objects that
// garbage collection has already freed (HeapProfiler.startSampling with both include flags), so the
// figures are bytes allocated per request, not bytes kept. Both instruments slow the process, so
// compare shares within one profile, not its req/s with a suite run.
// Usage: node experiments/gas-profile.mjs <cpu|alloc> [workload] [seconds] [top]
//   (after `pnpm --filter @ctss/bench build` and the gas quote API's build; Redis at REDIS_URL)
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { freePort } from '../dist/child.js';
import { runLoad } from '../dist/load.js';
import { startGasQuoteApi } from '../dist/services.js';
import { httpWorkloads, PLACEHOLDER_PARAMS } from '../dist/workloads.js';

const [mode, name = 'quote-ed25519', secondsArg = '10', topArg = '30'] = process.argv.slice(2);
if (mode !== 'cpu' && mode !== 'alloc')
  throw new Error('usage: gas-profile.mjs <cpu|alloc> [workload] [seconds] [top]');
const workload = httpWorkloads(PLACEHOLDER_PARAMS).find(
  (w) => w.service === 'gas' && w.name === name,
);
if (!workload) throw new Error(`no gas workload ${name}`);

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
const drive = (durationSeconds, warmupSeconds) =>
  runLoad({
    baseUrl: service.baseUrl,
    plan: workload.plan,
    connections: workload.connections,
    durationSeconds,
    warmupSeconds,
  });

/** Sends Chrome DevTools Protocol commands over the inspector's WebSocket. */
async function inspector(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const pending = new Map();
  let nextId = 0;
  socket.on('message', (data) => {
    const reply = JSON.parse(String(data));
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  return {
    call: (method, params = {}) =>
      new Promise((resolve) => {
        pending.set(++nextId, resolve);
        socket.send(JSON.stringify({ id: nextId, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** `node_modules/.pnpm/<name>@<version>...` -> name, `node:x` as is, the repository's files by folder. */
function packageOf(url, functionName) {
  const pnpm = url.match(/node_modules\/\.pnpm\/(@?[^@/]+(?:\+[^@/]+)?)@/);
  if (pnpm) return pnpm[1];
  if (!url) return functionName;
  if (url.startsWith('node:')) return url;
  return `own:${url
    .replace(/.*\/work\/[^/]+\//, '')
    .split('/')
    .slice(0, 2)
    .join('/')}`;
}
const frameOf = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${lineNumber + 1}`;

/** Prints the `top` largest entries of each map as a per-request figure and a share. */
function print(title, unit, totals, perRequest, sum) {
  console.log(`--- ${title}`);
  for (const [key, value] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg)))
    console.log(
      `${(value * perRequest).toFixed(1).padStart(8)} ${unit}  ${((100 * value) / sum).toFixed(1).padStart(5)} %  ${key}`,
    );
}
const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);

let requests;
if (mode === 'alloc') {
  await drive(3, 1);
  const session = await inspector(inspectPort);
  await session.call('HeapProfiler.enable');
  await session.call('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  requests = (await drive(Number(secondsArg), 0)).total;
  const { result } = await session.call('HeapProfiler.stopSampling');
  session.close();
  await service.child.stop();
  const byPackage = new Map();
  const byFunction = new Map();
  let sum = 0;
  const walk = (node) => {
    sum += node.selfSize;
    add(byPackage, packageOf(node.callFrame.url, node.callFrame.functionName), node.selfSize);
    add(byFunction, frameOf(node.callFrame), node.selfSize);
    node.children.forEach(walk);
  };
  walk(result.profile.head);
  console.log(
    `${name}: ${requests} requests, ${(sum / requests).toFixed(0)} bytes allocated per request`,
  );
  print('by package', 'B', byPackage, 1 / requests, sum);
  print('by function', 'B', byFunction, 1 / requests, sum);
} else {
  requests = (await drive(Number(secondsArg), 2)).total;
  await service.child.stop();
  const [file] = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(await readFile(path.join(profileDir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map();
  profile.samples.forEach((id, i) => add(selfTime, id, profile.timeDeltas[i] ?? 0));
  const byPackage = new Map();
  const byFunction = new Map();
  let busy = 0;
  for (const [id, micros] of selfTime) {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') continue;
    busy += micros;
    add(byPackage, packageOf(callFrame.url, callFrame.functionName), micros);
    add(byFunction, frameOf(callFrame), micros);
  }
  // The profile spans start-up and warm-up too, so per-request figures are shares of the busy
  // time spread over the measured requests: an upper bound, for comparing parts.
  console.log(
    `${name}: ${requests} requests measured, ${(busy / 1e6).toFixed(2)} s busy in the profile`,
  );
  print('by package', 'us', byPackage, 1 / requests, busy);
  print('by function', 'us', byFunction, 1 / requests, busy);
}
