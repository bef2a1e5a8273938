/**
 * The points and rank job as a long-running process (`node dist/bin/rank-job.js --every <s>`;
 * docs/decisions.md "D210. The points rule version on every row, and the job's health"): the
 * steps of rank-job.ts every `everySeconds` (the next run starts that long after the previous one
 * ended, so runs never overlap in a process; the advisory lock keeps them apart across
 * processes), and `GET /health`, `GET /ready`, `GET /metrics` on PORT. Used by `pnpm demo` and by
 * deployments that prefer a Deployment with probes to a CronJob.
 */
import {
  createMetrics,
  startProbeServer,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { Counter, Gauge } from 'prom-client';
import type { AppConfig } from './config.js';
import { pointsRuleOf, ruleVersion } from './points/rule.js';
import { openRankJobDatabase, runRankJobSteps, type RankJobResult } from './rank-job.js';

/** The last run as `/health` reports it. */
interface LastRun {
  /** ISO 8601 end of the run. */
  readonly at: string;
  readonly mode: RankJobResult['points']['mode'];
  readonly reason?: string;
  readonly rule_version: string;
  readonly senders: number;
  readonly wallets: number;
  readonly ranks_changed: RankJobResult['ranks'];
  /** Wall time of the run, milliseconds. */
  readonly ms: number;
}

/** The last failed run, until a run succeeds. */
interface LastError {
  readonly at: string;
  readonly message: string;
}

/**
 * Starts the scheduled job and its probe server on `config.PORT`; the first run starts at once.
 *
 * `/health` (200): `{ status: 'starting' | 'ok' | 'degraded', rule_version, every_seconds,
 * last_run: LastRun | null, last_error? }`, `degraded` while the latest run failed.
 * `/metrics`: `monitoring_rank_job_points_rule_info{rule_version}` (1 for the rule this process
 * applies), `monitoring_rank_job_runs_total{mode,outcome}`,
 * `monitoring_rank_job_last_success_timestamp_seconds`,
 * `monitoring_rank_job_last_run_duration_seconds{step}`.
 *
 * @param options.everySeconds seconds between the end of a run and the start of the next (>= 1).
 * @param options.rebuild rebuild every wallet's points in the first run.
 * @throws when DATABASE_URL is absent or the port is taken.
 */
export async function startRankJobService(
  config: AppConfig,
  logger: Logger,
  options: { everySeconds: number; rebuild?: boolean },
): Promise<RunningService> {
  if (!config.DATABASE_URL)
    throw new Error('DATABASE_URL must be set: the rank job writes to the primary database');
  const rule = pointsRuleOf(config);
  const version = ruleVersion(rule);
  const db = openRankJobDatabase(config.DATABASE_URL, config, logger, 2);
  const metrics = createMetrics({ prefix: 'monitoring_rank_job_' });
  const registers = [metrics.registry];
  new Gauge({
    name: 'monitoring_rank_job_points_rule_info',
    help: 'The points rule version this job applies (value 1; the version is the first 12 hex digits of SHA-256 over the canonical rule)',
    labelNames: ['rule_version'],
    registers,
  }).set({ rule_version: version }, 1);
  const runs = new Counter({
    name: 'monitoring_rank_job_runs_total',
    help: 'Runs of the points and rank job by points mode (rebuild, incremental; none when it failed before) and outcome (ok, failed)',
    labelNames: ['mode', 'outcome'],
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'monitoring_rank_job_last_success_timestamp_seconds',
    help: 'Unix time of the end of the last successful run (0 before the first)',
    registers,
  });
  lastSuccess.set(0);
  const duration = new Gauge({
    name: 'monitoring_rank_job_last_run_duration_seconds',
    help: 'Wall time of each step of the last successful run (points, ranks)',
    labelNames: ['step'],
    registers,
  });

  let lastRun: LastRun | null = null;
  let lastError: LastError | undefined;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let rebuild = options.rebuild === true;

  const runOnce = async (): Promise<void> => {
    const started = performance.now();
    try {
      const result = await runRankJobSteps(db, rule, logger, { rebuild });
      rebuild = false;
      const { points } = result;
      lastRun = {
        at: new Date().toISOString(),
        mode: points.mode,
        ...(points.reason === undefined ? {} : { reason: points.reason }),
        rule_version: points.rule_version,
        senders: points.senders,
        wallets: points.wallets,
        ranks_changed: result.ranks,
        ms: Math.round(performance.now() - started),
      };
      lastError = undefined;
      runs.inc({ mode: points.mode, outcome: 'ok' });
      lastSuccess.set(Date.now() / 1000);
      duration.set({ step: 'points' }, result.ms.points / 1000);
      duration.set({ step: 'ranks' }, result.ms.ranks / 1000);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      lastError = { at: new Date().toISOString(), message };
      runs.inc({ mode: 'none', outcome: 'failed' });
      logger.error({ err }, 'points and rank job run failed; retried at the next interval');
    }
  };
  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = runOnce().finally(() => {
        running = undefined;
        schedule(options.everySeconds * 1000);
      });
    }, ms);
  };
  schedule(0);

  const { server, port } = await startProbeServer({
    port: config.PORT,
    logger,
    registry: metrics.registry,
    health: () => ({
      status: lastError ? 'degraded' : lastRun ? 'ok' : 'starting',
      rule_version: version,
      every_seconds: options.everySeconds,
      last_run: lastRun,
      ...(lastError ? { last_error: lastError } : {}),
    }),
    // Ready when the database answers within 2 s and holds the points tables (migrated).
    ready: () => db.execute('select 1 from wallet_swap_points limit 1'),
  });
  logger.info(
    { port, every_seconds: options.everySeconds, rule_version: version },
    'monitoring-rank-job running',
  );
  return {
    server,
    async close() {
      stopping = true;
      clearTimeout(timer);
      await running;
      await db.close();
    },
  };
}
