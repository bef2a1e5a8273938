/**
 * `node dist/bin/rank-job.js [--rebuild] [--every <seconds>]`: recomputes the swap points of
 * wallets whose transfers changed (every wallet with `--rebuild` or after a points rule change),
 * then the stored leaderboard ranks (mainnet and devnet, one transaction) on DATABASE_URL.
 *
 * - Without `--every` it runs once and exits (a Kubernetes CronJob): prints
 *   `{"points":{...,"rule_version":...},"changed":{...}}`; exit code 0 on success, 1 with the
 *   reason on stderr otherwise (a bad flag: 2).
 * - With `--every <seconds>` (1 to 86400) it runs at once and then that long after each run
 *   ends, serving `GET /health`, `GET /ready` and `GET /metrics` on PORT
 *   (src/rank-job-service.ts); SIGTERM lets the run in progress finish, then exits.
 */
import { parseArgs } from 'node:util';
import { runProcess } from '@ctss/server-kit';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { runRankJob } from '../rank-job.js';
import { startRankJobService } from '../rank-job-service.js';

const Flags = z.object({
  rebuild: z.boolean().default(false),
  every: z
    .string()
    .regex(/^[0-9]+$/, '--every must be a whole number of seconds')
    .transform(Number)
    .pipe(z.number().int().min(1, '--every must be at least 1').max(86_400))
    .optional(),
});

let flags: z.output<typeof Flags>;
try {
  const parsed = Flags.safeParse(
    parseArgs({
      options: { rebuild: { type: 'boolean' }, every: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values,
  );
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  flags = parsed.data;
} catch (err) {
  process.stderr.write(
    `rank job: ${err instanceof Error ? err.message : String(err)}\nusage: rank-job.js [--rebuild] [--every <seconds>]\n`,
  );
  process.exit(2);
}

if (flags.every !== undefined) {
  const everySeconds = flags.every;
  await runProcess('monitoring-rank-job', loadConfig, (config, logger) =>
    startRankJobService(config, logger, { everySeconds, rebuild: flags.rebuild }),
  );
} else {
  await runRankJob(process.env, { rebuild: flags.rebuild }).then(
    (result) => {
      process.stdout.write(`${JSON.stringify({ points: result.points, changed: result.ranks })}\n`);
    },
    (err: unknown) => {
      process.stderr.write(
        `rank job failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
