/**
 * One run of the rank job (src/bin/rank-job.ts, `node dist/bin/rank-job.js`; docs/architecture.md
 * "Services and processes"): validate the configuration, connect to DATABASE_URL (the primary:
 * the job writes), recompute the stored ranks of both networks in one transaction
 * (users/ranks.ts), disconnect.
 */
import { createLogger, parseConfig } from '@ctss/server-kit';
import { ConfigSchema } from './config.js';
import { createKnex } from './db/connect.js';
import { recomputeRanks, type RankUpdateCounts } from './users/ranks.js';

/**
 * Runs the rank job once.
 *
 * @param env environment variables (default `process.env`); DATABASE_URL is required.
 * @returns how many users' ranks changed per network.
 * @throws ConfigError for invalid configuration, Error when DATABASE_URL is absent, database errors.
 */
export async function runRankJob(
  env: Record<string, string | undefined> = process.env,
): Promise<RankUpdateCounts> {
  const config = parseConfig(ConfigSchema, env);
  if (!config.DATABASE_URL)
    throw new Error('DATABASE_URL must be set: the rank job writes to the primary database');
  const logger = createLogger({ name: 'monitoring-rank-job', level: config.LOG_LEVEL });
  const knex = createKnex(config.DATABASE_URL, { poolMax: 1, logger });
  try {
    const started = performance.now();
    const changed = await recomputeRanks(knex);
    logger.info({ changed, ms: Math.round(performance.now() - started) }, 'ranks recomputed');
    return changed;
  } finally {
    await knex.destroy();
  }
}
