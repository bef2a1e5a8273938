/**
 * Flags of `pnpm bench:indexer` (packages/bench/README.md "Indexer"), validated once; a bad flag
 * stops the run with the usage text.
 */
import { z } from 'zod';
import { DatabaseUrlSchema, parseFlags } from '../flags.js';

const count = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

const Schema = z.object({
  /** Transfers seeded before the backfill. */
  transfers: count(1, 10_000_000, 100_000),
  /** Blocks they are spread over. */
  blocks: count(1, 1_000_000, 10_000),
  /** Transfers timed at the head. */
  samples: count(0, 100_000, 200),
  /** The indexer's poll interval, ms. */
  pollMs: count(10, 60_000, 1_000),
  /** Transfers seeded on the local Solana cluster for its backfill row (0 = no Solana rows). */
  solanaTransfers: count(0, 1_000_000, 2_000),
  /** Confirmation depth of the indexed chain, blocks. */
  confirmations: count(0, 1_000, 2),
  /** PostgreSQL server (the run creates and drops its own database there). */
  databaseUrl: DatabaseUrlSchema,
});

/** Validated options. */
export type IndexerBenchOptions = z.output<typeof Schema>;

/** Usage text. */
export const USAGE = `Usage: pnpm bench:indexer [--transfers N] [--blocks N] [--samples N] [--poll-ms MS] [--confirmations N] [--solana-transfers N]
  --transfers      transfers seeded on the chain (default 100000)
  --blocks         blocks they are spread over (default 10000)
  --samples        transfers timed at the head (default 200)
  --poll-ms        the indexer's pollIntervalMs (default 1000)
  --confirmations  the chain's confirmation depth (default 2)
  --solana-transfers  transfers on the local Solana cluster for the Solana rows (default 2000; 0 = none)
Environment: DATABASE_URL (a PostgreSQL server; database ctss_bench_indexer is created and dropped).`;

/**
 * Parses `argv` (without node and the script) and `env`.
 *
 * @throws Error with every bad flag named.
 */
export function parseIndexerOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): IndexerBenchOptions {
  const values = parseFlags(argv, {
    transfers: { type: 'string' },
    blocks: { type: 'string' },
    samples: { type: 'string' },
    'poll-ms': { type: 'string' },
    confirmations: { type: 'string' },
    'solana-transfers': { type: 'string' },
  });
  const result = Schema.safeParse({
    transfers: values.transfers,
    blocks: values.blocks,
    samples: values.samples,
    pollMs: values['poll-ms'],
    confirmations: values.confirmations,
    solanaTransfers: values['solana-transfers'],
    databaseUrl: env.DATABASE_URL || undefined,
  });
  if (!result.success)
    throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}
