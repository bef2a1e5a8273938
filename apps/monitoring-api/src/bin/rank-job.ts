/**
 * `node dist/bin/rank-job.js`: recomputes the stored leaderboard ranks (mainnet and devnet, one
 * transaction) on DATABASE_URL and exits; run it on a schedule (e.g. a Kubernetes CronJob).
 * Exit code 0 on success, 1 with the reason on stderr otherwise.
 */
import { runRankJob } from '../rank-job.js';

runRankJob().then(
  (changed) => {
    process.stdout.write(`${JSON.stringify({ changed })}\n`);
  },
  (err: unknown) => {
    process.stderr.write(`rank job failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
