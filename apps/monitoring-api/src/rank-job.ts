/**
 * One run of the points and rank job (src/bin/rank-job.ts, `node dist/bin/rank-job.js`;
 * docs/architecture.md "Services and processes"): validate the configuration (including the
 * points rule, POINTS_PER_USD / POINTS_MULTIPLIERS), connect to DATABASE_URL (the primary: the
 * job writes), recompute the swap points of the wallets whose transfers changed since the last
 * run (points/recompute.ts; everything when the rule changed or `rebuild` is asked), then the
 * stored ranks of both networks (users/ranks.ts), disconnect.
 */
import { createLogger, parseConfig } from '@ctss/server-kit';
import { ConfigSchema } from './config.js';
import { createAdminKnex } from './db/connect.js';
import { recomputePoints, type PointsRunResult } from './points/recompute.js';
import { pointsRuleOf } from './points/rule.js';
import { recomputeRanks, type RankUpdateCounts } from './users/ranks.js';

/** What one run did. */
export interface RankJobResult {
  /** The points step: mode, rule version, senders and wallets recomputed. */
  points: PointsRunResult;
  /** How many users' ranks changed per network. */
  ranks: RankUpdateCounts;
}

/**
 * Runs the points and rank job once.
 *
 * @param env environment variables (default `process.env`); DATABASE_URL is required.
 * @param options.rebuild recompute every wallet's points from scratch (same result as the
 *   incremental run; use after a restore or to check).
 * @returns the points step's result and the rank changes.
 * @throws ConfigError for invalid configuration, Error when DATABASE_URL is absent, database errors.
 */
export async function runRankJob(
  env: Record<string, string | undefined> = process.env,
  options: { rebuild?: boolean } = {},
): Promise<RankJobResult> {
  const config = parseConfig(ConfigSchema, env);
  if (!config.DATABASE_URL)
    throw new Error('DATABASE_URL must be set: the rank job writes to the primary database');
  const logger = createLogger({ name: 'monitoring-rank-job', level: config.LOG_LEVEL });
  const knex = createAdminKnex(config.DATABASE_URL, { poolMax: 1, logger });
  try {
    const started = performance.now();
    const points = await recomputePoints(knex, pointsRuleOf(config), options);
    logger.info({ ...points, ms: Math.round(performance.now() - started) }, 'points recomputed');
    const ranked = performance.now();
    const ranks = await recomputeRanks(knex);
    logger.info({ changed: ranks, ms: Math.round(performance.now() - ranked) }, 'ranks recomputed');
    return { points, ranks };
  } finally {
    await knex.destroy();
  }
}
