/**
 * Flags of `pnpm bench:indexer` (packages/bench/README.md "Indexer"), validated once; a bad flag
 * stops the run with the usage text.
 */
import { z } from 'zod';
import { DatabaseUrlSchema, parseFlags } from '../flags.js';

/** The chain families the run can measure. */
export const FAMILIES = ['evm', 'solana', 'sui', 'aptos'] as const;
/** One of {@link FAMILIES}. */
export type Family = (typeof FAMILIES)[number];
const FAMILIES_LIST = new RegExp(`^(${FAMILIES.join('|')})(,(${FAMILIES.join('|')}))*$`);

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
  /** Transfers served by the local Sui GraphQL RPC for its backfill row (0 = no Sui rows). */
  suiTransfers: count(0, 1_000_000, 2_000),
  /** Transfers served by the local Aptos Indexer and REST for its backfill row (0 = no Aptos rows). */
  aptosTransfers: count(0, 1_000_000, 2_000),
  /** The chain families measured, in this order. */
  only: z
    .string()
    .regex(FAMILIES_LIST, `must be a comma-separated list of ${FAMILIES.join(', ')}`)
    .optional()
    .transform((v) =>
      v === undefined ? [...FAMILIES] : FAMILIES.filter((f) => v.split(',').includes(f)),
    ),
  /**
   * Name of the database the run creates and drops (`<name>_solana`, `<name>_sui`, `<name>_aptos`
   * for the other families).
   */
  database: z
    .string()
    .regex(
      /^[a-z_][a-z0-9_]{0,40}$/,
      'BENCH_INDEXER_DATABASE must be a plain lower-case identifier',
    )
    .default('ctss_bench_indexer'),
  /** Confirmation depth of the indexed chain, blocks. */
  confirmations: count(0, 1_000, 2),
  /** PostgreSQL server (the run creates and drops its own database there). */
  databaseUrl: DatabaseUrlSchema,
});

/** Validated options. */
export type IndexerBenchOptions = z.output<typeof Schema>;

/** Usage text. */
export const USAGE = `Usage: pnpm bench:indexer [--only FAMILIES] [--transfers N] [--blocks N] [--samples N] [--poll-ms MS] [--confirmations N] [--solana-transfers N] [--sui-transfers N] [--aptos-transfers N]
  --only           the chain families measured, comma-separated (default evm,solana,sui,aptos)
  --transfers      transfers seeded on the chain (default 100000)
  --blocks         blocks they are spread over (default 10000)
  --samples        transfers timed at the head (default 200)
  --poll-ms        the indexer's pollIntervalMs (default 1000)
  --confirmations  the chain's confirmation depth (default 2)
  --solana-transfers  transfers on the local Solana cluster for the Solana rows (default 2000; 0 = none)
  --sui-transfers  transfers served by the local Sui GraphQL RPC for the Sui rows (default 2000; 0 = none)
  --aptos-transfers  transfers served by the local Aptos Indexer and REST for the Aptos rows (default 2000; 0 = none)
Environment: DATABASE_URL (a PostgreSQL server), BENCH_INDEXER_DATABASE (the database created
and dropped there, default ctss_bench_indexer; _solana, _sui, _aptos appended for those families).`;

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
    'sui-transfers': { type: 'string' },
    'aptos-transfers': { type: 'string' },
    only: { type: 'string' },
  });
  const result = Schema.safeParse({
    transfers: values.transfers,
    blocks: values.blocks,
    samples: values.samples,
    pollMs: values['poll-ms'],
    confirmations: values.confirmations,
    solanaTransfers: values['solana-transfers'],
    suiTransfers: values['sui-transfers'],
    aptosTransfers: values['aptos-transfers'],
    only: values.only,
    database: env.BENCH_INDEXER_DATABASE || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
  });
  if (!result.success)
    throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}
