/**
 * Command-line flags of `pnpm bench`, parsed once with node:util parseArgs and validated with zod
 * (absent = default, present but invalid = exit with a message naming the flag).
 */
import { z } from 'zod';
import { DatabaseUrlSchema, parseFlags } from './flags.js';

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^[0-9][0-9_]*$/, `--${name} must be a positive integer`)
    .transform((v) => Number(v.replaceAll('_', '')))
    .pipe(z.number().int().positive().max(1_000_000_000));

const OptionsSchema = z.object({
  transactions: positiveInt('transactions').default(1_000_000),
  users: positiveInt('users').default(100_000),
  duration: positiveInt('duration').default(10),
  rounds: positiveInt('rounds').default(3),
  only: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      try {
        return new RegExp(v, 'i');
      } catch {
        ctx.addIssue({ code: 'custom', message: '--only must be a valid regular expression' });
        return z.NEVER;
      }
    }),
  wsClients: positiveInt('ws-clients').default(5000),
  skipSeed: z.boolean().default(false),
  reseed: z.boolean().default(false),
  skipBuild: z.boolean().default(false),
  noWrite: z.boolean().default(false),
  noFloor: z.boolean().default(false),
  cpuProf: z.boolean().default(false),
  renderOnly: z.boolean().default(false),
  note: z.string().max(500).optional(),
  env: z
    .array(z.string().regex(/^[A-Z_][A-Z0-9_]*=/, '--env must be NAME=value'))
    .default([])
    .transform((pairs) =>
      Object.fromEntries(
        pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
      ),
    ),
  databaseUrl: DatabaseUrlSchema,
  benchDatabase: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'BENCH_DATABASE must be a plain lower-case identifier')
    .default('ctss_bench'),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
});

/** Validated options of one benchmark run. */
export type BenchOptions = z.output<typeof OptionsSchema>;

/** Usage text printed for `--help` and on a bad flag. */
export const USAGE = `Usage: pnpm bench [flags]
  --transactions N   mainnet+testnet transactions in the benchmark database (default 1000000)
  --users N          users (default 100000)
  --duration S       seconds per HTTP workload (default 10)
  --rounds N         measure every HTTP workload N times, each round on freshly started APIs, and
                     report the median round (default 3)
  --only PATTERN     run only workloads whose name matches this regular expression (and the
                     baselines they are judged against); ws-fanout, sse-fanout and points-job
                     (the points and rank job's cost) are named workloads too
  --ws-clients N     WebSocket clients of the fan-out workload (default 5000)
  --skip-seed        use the benchmark database as it is (no size check, no reload)
  --reseed           reload the dataset even when its size matches (e.g. after the seeder changed)
  --skip-build       do not build the apps first (use their current dist/)
  --no-write         print the table but do not update BENCHMARKS.md or results/
  --no-floor         skip the database floor measured after each feed workload
  --cpu-prof         run the APIs with --cpu-prof (profiles in packages/bench/bench-results/profiles)
  --env NAME=VALUE   extra environment for both APIs, repeatable (experiments, e.g. PGOPTIONS=-c jit=off);
                     the values are recorded in the report
  --render-only      only re-render BENCHMARKS.md from results/ (no load)
  --note TEXT        a note for the report (e.g. other load on the machine)
Environment: DATABASE_URL (admin connection to the PostgreSQL server; the benchmark database
  BENCH_DATABASE, default ctss_bench, is created on the same server), REDIS_URL; BENCH_POSTGRES_PID
  and BENCH_REDIS_PID (a postmaster's / redis-server's pid) count only that server's processes in
  the CPU table, when other PostgreSQL or Redis servers run on the machine.`;

/**
 * Parses `argv` (without node and script) and `env` into {@link BenchOptions}.
 * @throws Error with a readable message when a flag or variable is invalid or unknown.
 */
export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): BenchOptions | 'help' {
  const values = parseFlags(argv, {
    transactions: { type: 'string' },
    users: { type: 'string' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string' },
    'ws-clients': { type: 'string' },
    'skip-seed': { type: 'boolean' },
    reseed: { type: 'boolean' },
    'skip-build': { type: 'boolean' },
    'no-write': { type: 'boolean' },
    'no-floor': { type: 'boolean' },
    'cpu-prof': { type: 'boolean' },
    'render-only': { type: 'boolean' },
    note: { type: 'string' },
    env: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const parsed = OptionsSchema.safeParse({
    transactions: values.transactions,
    users: values.users,
    duration: values.duration,
    rounds: values.rounds,
    only: values.only,
    wsClients: values['ws-clients'],
    skipSeed: values['skip-seed'],
    reseed: values.reseed,
    skipBuild: values['skip-build'],
    noWrite: values['no-write'],
    noFloor: values['no-floor'],
    cpuProf: values['cpu-prof'],
    renderOnly: values['render-only'],
    note: values.note,
    env: values.env,
    databaseUrl: env.DATABASE_URL || undefined,
    benchDatabase: env.BENCH_DATABASE || undefined,
    redisUrl: env.REDIS_URL || undefined,
  });
  if (parsed.success && parsed.data.reseed && parsed.data.skipSeed)
    throw new Error('--reseed and --skip-seed exclude each other');
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}
