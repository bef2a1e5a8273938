/**
 * `pnpm demo` shows the points loop (docs/indexer.md "Demo"): the built demo, run as a process on
 * free ports, joins its sending wallet as `demo.ctss` and prints its swap points growing, with its
 * leaderboard total and rank, as its transfers are confirmed and the points and rank job runs;
 * SIGTERM stops it with exit code 0. Needs `pnpm build` first.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { expect, it, jest } from '@jest/globals';
import { demoEntry } from '@ctss/devnet';

jest.setTimeout(300_000);

/** A port that was free a moment ago (the OS picks it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** `points: demo.ctss 1,224 swap points (...); leaderboard total 1,224, rank 1 of 1`. */
const POINTS_LINE =
  /^\[demo\] points: demo\.ctss ([\d,.]+) swap points .*leaderboard total ([\d,.]+), rank (\d+|not ranked yet) of (\d+)$/;

it('when the demo runs, then it prints the demo wallet joining, then its points growing run after run with its leaderboard total and rank, and stops on SIGTERM', async () => {
  const ports: Record<string, string> = {};
  for (const name of [
    'DEMO_MONITORING_PORT',
    'DEMO_GAS_QUOTE_PORT',
    'DEMO_INDEXER_PORT',
    'DEMO_RANK_JOB_PORT',
    'DEMO_CHAIN_A_PORT',
    'DEMO_CHAIN_B_PORT',
    'DEMO_IRIS_PORT',
  ])
    ports[name] = String(await freePort());
  const demo = spawn(process.execPath, [demoEntry()], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      ...ports,
      DEMO_INTERVAL_SECONDS: '2',
      DEMO_ATTEST_SECONDS: '1',
      DEMO_RANK_JOB_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) =>
    demo.once('exit', (code) => resolve(code)),
  );
  const lines: string[] = [];
  const points: { swap: number; total: number; rank: string }[] = [];
  let joined = false;
  const enough = new Promise<void>((resolve, reject) => {
    createInterface({ input: demo.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('[demo] joined as demo.ctss with the sending wallet 0x')) joined = true;
      const m = POINTS_LINE.exec(line);
      if (m) {
        const num = (s: string) => Number(s.replaceAll(',', ''));
        points.push({ swap: num(m[1]!), total: num(m[2]!), rank: `${m[3]} of ${m[4]}` });
        // Two increases after the first figure: the points grow run after run.
        if (new Set(points.map((p) => p.swap).filter((s) => s > 0)).size >= 2) resolve();
      }
    });
    void exited.then((code) =>
      reject(new Error(`demo exited (${code}) early:\n${lines.join('\n')}`)),
    );
  });
  createInterface({ input: demo.stderr }).on('line', (line) => lines.push(`stderr: ${line}`));
  try {
    await enough;
  } finally {
    demo.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(joined).toBe(true);
  // The first figure is before any transfer counted; then the points only grow, the leaderboard
  // total with them, and the rank is the one of the only user.
  expect(points[0]!.swap).toBe(0);
  for (let i = 1; i < points.length; i++)
    expect(points[i]!.swap).toBeGreaterThanOrEqual(points[i - 1]!.swap);
  const last = points.at(-1)!;
  expect(last.swap).toBeGreaterThan(0);
  expect(last.total).toBe(last.swap);
  expect(last.rank).toBe('1 of 1');
});
