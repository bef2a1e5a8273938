/**
 * `node dist/bin/rank-job.js [--rebuild]`: recomputes the swap points of wallets whose transfers
 * changed (every wallet with `--rebuild` or after a points rule change), then the stored
 * leaderboard ranks (mainnet and devnet, one transaction) on DATABASE_URL and exits; run it on a
 * schedule (e.g. a Kubernetes CronJob). Prints `{"points":{...,"rule_version":...},"changed":{...}}`.
 * Exit code 0 on success, 1 with the reason on stderr otherwise.
 */
import { runRankJob } from '../rank-job.js';

runRankJob(process.env, { rebuild: process.argv.includes('--rebuild') }).then(
  (result) => {
    process.stdout.write(`${JSON.stringify({ points: result.points, changed: result.ranks })}\n`);
  },
  (err: unknown) => {
    process.stderr.write(`rank job failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
