import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { chartNodeFlags, MONITORING_NODE_FLAGS, nodeFlagsArgument } from '../src/services.js';

/** Writes `text` as a values.yaml in a fresh directory and returns its path. */
async function values(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'bench-chart-')), 'values.yaml');
  await writeFile(file, text);
  return file;
}

describe('the node flags the suite starts the monitoring API with', () => {
  it("are the flags of the chart's command, between node and the script", async () => {
    const file = await values(
      'replicaCount: 2\ncommand:\n  - node\n  - --max-old-space-size=300\n  - --heap-growing-percent=50\n  - dist/bin/main.js\n',
    );
    expect(chartNodeFlags(file)).toEqual(['--max-old-space-size=300', '--heap-growing-percent=50']);
  });

  it('refuse a chart whose command is missing or does not run node', async () => {
    const missing = await values('replicaCount: 2\n');
    expect(() => chartNodeFlags(missing)).toThrow(`${missing}: command must be a list`);
    const shell = await values("command: ['sh', '-c', 'node dist/bin/main.js']\n");
    expect(() => chartNodeFlags(shell)).toThrow('starting with node');
  });

  it("carry the deployed chart's heap limit", () => {
    expect(MONITORING_NODE_FLAGS.some((flag) => /^--max-old-space-size=\d+$/.test(flag))).toBe(
      true,
    );
  });
});

describe("a tool's node flags argument", () => {
  it("names the chart's flags when absent, none for -, else its own", () => {
    expect(nodeFlagsArgument(undefined)).toEqual(MONITORING_NODE_FLAGS);
    expect(nodeFlagsArgument('-')).toEqual([]);
    expect(nodeFlagsArgument('--max-semi-space-size=16  --no-opt')).toEqual([
      '--max-semi-space-size=16',
      '--no-opt',
    ]);
  });
});
