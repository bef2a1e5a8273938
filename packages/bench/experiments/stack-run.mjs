// Shared by the stack experiments: starts stack-server.mjs with a variant's environment, measures
// it with autocannon (1 s of warm-up, then `seconds`), accounts the server's and this process's
// CPU per request (from /proc, as the suite does), and stops it.
import { accountCpu } from '../dist/cpu.js';
import { freePort, startNode, waitForHttp } from '../dist/child.js';
import { runLoad } from '../dist/load.js';

/**
 * @param {{ env: Record<string, string> }} variant  stack-server.mjs's environment (STACK, BODY...)
 * @param {{ connections: number, seconds: number }} load
 * @returns {Promise<{ result: import('../dist/load.js').LoadResult, cpu: import('../dist/cpu.js').CpuPerRequest | undefined }>}
 */
export async function measureStack(variant, load) {
  const port = await freePort();
  const child = await startNode({
    name: 'stack',
    script: new URL('./stack-server.mjs', import.meta.url).pathname,
    cwd: process.cwd(),
    env: { ...variant.env, PORT: String(port), NODE_ENV: 'production' },
  });
  try {
    await waitForHttp(child, `http://127.0.0.1:${port}/`);
    let account;
    const result = await runLoad({
      baseUrl: `http://127.0.0.1:${port}`,
      plan: { kind: 'paths', paths: ['/'] },
      connections: load.connections,
      durationSeconds: load.seconds,
      warmupSeconds: 1,
      beforeMeasure: async () => {
        account = await accountCpu(child.pid);
      },
    });
    return { result, cpu: await account.stop(result.total) };
  } finally {
    await child.stop();
  }
}
