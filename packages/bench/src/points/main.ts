/**
 * `pnpm bench:points [--transfers N] [--wallets N] [--changed N]`: the points and rank job's cost
 * alone (measure.ts; `pnpm bench` measures the same as its `points-job` rows) on DATABASE_URL
 * (default the local server). Prints a Markdown table and writes it to bench-results/points.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RUN_DIR } from '../paths.js';
import { measurePointsJob, pointsJobTable } from './measure.js';

function argOf(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${name} must be a positive integer`);
  return value;
}

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const result = await measurePointsJob({
    adminUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    transfers: argOf('transfers', 1_000_000),
    wallets: argOf('wallets', 100_000),
    changed: argOf('changed', 1_000),
    log,
  });
  const table = pointsJobTable(result).join('\n');
  log(table);
  await mkdir(RUN_DIR, { recursive: true });
  await writeFile(path.join(RUN_DIR, 'points.md'), `${table}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`points bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
