/**
 * One run of the points and rank job (src/bin/rank-job.ts, `node dist/bin/rank-job.js`;
 * docs/architecture.md "Services and processes"): validate the configuration (including the
 * points rule, POINTS_PER_USD / POINTS_MULTIPLIERS), connect to DATABASE_URL (the primary: the
 * job writes), recompute the swap points of the wallets whose transfers changed since the last
 * run (points/recompute.ts; everything when the rule changed or `rebuild` is asked), then the
 * stored ranks of both networks (users/ranks.ts), disconnect. The same steps run on a schedule in
 * one process by rank-job-service.ts (`--every`).
 */
import { createLogger, parseConfig, type Logger } from '@ctss/server-kit';
import { ConfigSchema, type AppConfig } from './config.js';
import { createWriterDatabase, WRITER_STATEMENT_TIMEOUTS_MS } from './db/connect.js';
import type { Database } from './db/database.js';
import type { Session } from './db/statements.js';
import { recomputePoints, type PointsRunResult } from './points/recompute.js';
import { pointsRuleOf, type PointsRule } from './points/rule.js';
import { recomputeRanks, type RankUpdateCounts } from './users/ranks.js';

/** What one run did. */
export interface RankJobResult {
  /** The points step: mode, rule version, senders and wallets recomputed. */
  points: PointsRunResult;
  /** How many users' ranks changed per network. */
  ranks: RankUpdateCounts;
  /** Wall time of each step, milliseconds. */
  ms: { points: number; ranks: number };
}

/**
 * The job's two steps on an open connection: points under `rule` (a rebuild when asked or when
 * the stored rule differs, logged with its reason at warn level), then ranks.
 *
 * @param db the primary (the job writes).
 * @returns the points step's result, the rank changes and the steps' times.
 * @throws database errors (each step is one transaction; a failed step leaves nothing half-applied).
 */
export async function runRankJobSteps(
  db: Session,
  rule: PointsRule,
  logger: Logger,
  options: { rebuild?: boolean } = {},
): Promise<RankJobResult> {
  const started = performance.now();
  const points = await recomputePoints(db, rule, options);
  const pointsMs = Math.round(performance.now() - started);
  if (points.reason === 'rule_changed' || points.reason === 'rows_of_other_rule')
    logger.warn(
      { ...points },
      `points computed under another rule found (${points.reason}): rebuilt every wallet under rule ${points.rule_version}`,
    );
  logger.info({ ...points, ms: pointsMs }, 'points recomputed');
  const ranked = performance.now();
  const ranks = await recomputeRanks(db);
  const ranksMs = Math.round(performance.now() - ranked);
  logger.info({ changed: ranks, ms: ranksMs }, 'ranks recomputed');
  return { points, ranks, ms: { points: pointsMs, ranks: ranksMs } };
}

/**
 * The job's handle on the primary (docs/decisions.md "D250. The indexer, the rank job and the
 * seed on the database layer"): `poolMax` connections (each step is one transaction on one of
 * them; a second one answers the service's `/ready` during a run), the connect and
 * acquire timeouts of DATABASE_CONNECT_TIMEOUT_MS and DATABASE_ACQUIRE_TIMEOUT_MS, the job's own
 * statement timeout (a rebuild recomputes every wallet), and a circuit breaker, so a run against
 * a lost database fails at once with DependencyUnavailableError and the next run succeeds once
 * it is back.
 */
export function openRankJobDatabase(
  url: string,
  config: Pick<AppConfig, 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_ACQUIRE_TIMEOUT_MS'>,
  logger: Logger,
  poolMax = 1,
): Database {
  return createWriterDatabase(
    url,
    {
      poolMax,
      timeouts: {
        connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
        statementTimeoutMs: WRITER_STATEMENT_TIMEOUTS_MS.rankJob,
      },
    },
    logger,
  );
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
  const db = openRankJobDatabase(config.DATABASE_URL, config, logger);
  try {
    return await runRankJobSteps(db, pointsRuleOf(config), logger, options);
  } finally {
    await db.close();
  }
}
