/**
 * The bounded waits of `pnpm bench:indexer` (src/indexer/process.ts `waitWhileRunning`): a wait
 * on a real child process ends when the condition holds, rejects naming the child's log file when
 * the process exits first, and rejects after its timeout while the process keeps running.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startNode, type Child } from '../src/child.js';
import { backfillTimeoutMs, waitWhileRunning } from '../src/indexer/process.js';

let dir: string;
const started: Child[] = [];

/** Starts `node -e`-like `source` as a child named `name` (its log in bench-results/). */
async function child(name: string, source: string): Promise<Child> {
  const script = path.join(dir, `${name}.mjs`);
  await writeFile(script, source);
  const c = await startNode({ name, script, cwd: dir });
  started.push(c);
  return c;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bench-wait-'));
});

afterAll(async () => {
  await Promise.all(started.map((c) => c.stop(1_000)));
  await rm(dir, { recursive: true, force: true });
});

describe('waitWhileRunning', () => {
  it('resolves once the condition holds', async () => {
    const c = await child('wait-holds', 'setTimeout(() => {}, 30_000);');
    let checks = 0;
    await waitWhileRunning(c, '3 checks', () => Promise.resolve(++checks >= 3), 10_000);
    expect(checks).toBe(3);
  });

  it('rejects naming the log file when the process exits first', async () => {
    const c = await child('wait-exits', 'process.exit(3);');
    await expect(
      waitWhileRunning(c, '5 records', () => Promise.resolve(false), 10_000),
    ).rejects.toThrow(`wait-exits exited with 3 before 5 records; see ${c.logFile}`);
  });

  it('rejects after the timeout while the process runs', async () => {
    const c = await child('wait-stalls', 'setTimeout(() => {}, 30_000);');
    const t0 = Date.now();
    await expect(
      waitWhileRunning(c, '5 records', () => Promise.resolve(false), 300),
    ).rejects.toThrow(`wait-stalls: no 5 records after 300 ms; see ${c.logFile}`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(c.logFile.endsWith('wait-stalls.log')).toBe(true);
  });

  it('allows a backfill 120 s plus 10 ms a record', () => {
    expect(backfillTimeoutMs(0)).toBe(120_000);
    expect(backfillTimeoutMs(100_000)).toBe(1_120_000);
  });
});
