/**
 * The points rule version in use is visible and applied (docs/decisions.md "D210. The points rule
 * version on every row, and the job's health"): every row the job computes carries it, a run
 * under another rule or over rows of another rule rebuilds and says why, and the scheduled job
 * (`rank-job.js --every`) reports it in `/health` and `/metrics`.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger, type RunningService } from '@ctss/server-kit';
import { loadConfig } from '../../src/config.js';
import { createAdminKnex } from '../../src/db/connect.js';
import { recomputePoints } from '../../src/points/recompute.js';
import { pointsConfigSchema, pointsRuleOf, ruleVersion } from '../../src/points/rule.js';
import { startRankJobService } from '../../src/rank-job-service.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

jest.setTimeout(120_000);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.knex.raw(
    `insert into transactions (network, source_tx_hash, source_domain, destination_domain, sender,
       recipient, deposit_amount, receive_amount, confirmed, destination_tx_status, created_at)
     values ('mainnet', '0x' || repeat('1', 64), 0, 3, '0x00000000000000000000000000000000000000A1',
             'r', 2000000, 0, true, 'success', '2026-12-01T00:00:00Z'),
            ('testnet', '0x' || repeat('2', 64), 5, 0, 'So1anaSender1111111111111111111111111111111',
             'r', 3000000, 0, true, 'success', '2026-12-01T00:00:00Z')`,
  );
});
afterAll(async () => {
  await db?.drop();
});

const ONE = pointsRuleOf(pointsConfigSchema.parse({}));
const TWO = pointsRuleOf(pointsConfigSchema.parse({ POINTS_PER_USD: '3' }));

/** The distinct versions on the computed rows. */
async function versionsOnRows(): Promise<string[]> {
  const swap = await db.knex.raw<{ rows: { v: string }[] }>(
    'select distinct rule_version as v from wallet_swap_points order by 1',
  );
  return swap.rows.map((r) => r.v);
}

describe('the points rule version', () => {
  it('when the job first runs, then it rebuilds (first_run) and every computed row carries the version', async () => {
    const run = await recomputePoints(db.database, ONE);
    expect(run).toMatchObject({
      mode: 'rebuild',
      reason: 'first_run',
      rule_version: ruleVersion(ONE),
    });
    expect(run.previous_rule_version).toBeUndefined();
    expect(await versionsOnRows()).toEqual([ruleVersion(ONE)]);
    const again = await recomputePoints(db.database, ONE);
    expect(again.mode).toBe('incremental');
    expect(again.reason).toBeUndefined();
  });

  it('when the rule changes, then the next run rebuilds (rule_changed), names the old version and rewrites every row', async () => {
    const run = await recomputePoints(db.database, TWO);
    expect(run).toMatchObject({
      mode: 'rebuild',
      reason: 'rule_changed',
      rule_version: ruleVersion(TWO),
      previous_rule_version: ruleVersion(ONE),
      senders: 2,
    });
    expect(await versionsOnRows()).toEqual([ruleVersion(TWO)]);
    const points = await db.knex.raw<{ rows: { swap_points_mainnet: number }[] }>(
      `select swap_points_mainnet from wallet_points where chain_type = 'evm'`,
    );
    expect(points.rows).toEqual([{ swap_points_mainnet: 6 }]);
  });

  it('when rows computed under another rule are found, then the run refuses to be incremental and rebuilds (rows_of_other_rule)', async () => {
    // E.g. a table restored from a backup taken under an older rule, under today's points_state.
    await db.knex.raw(
      `update wallet_swap_points set rule_version = 'aaaaaaaaaaaa', points_micro = 1 where chain_type = 'solana'`,
    );
    const run = await recomputePoints(db.database, TWO);
    expect(run).toMatchObject({ mode: 'rebuild', reason: 'rows_of_other_rule', senders: 2 });
    expect(await versionsOnRows()).toEqual([ruleVersion(TWO)]);
    const solana = await db.knex.raw<{ rows: { p: string }[] }>(
      `select points_micro::text as p from wallet_swap_points where chain_type = 'solana'`,
    );
    expect(solana.rows).toEqual([{ p: '9000000' }]);
  });

  it('when run on a schedule, then /health and /metrics report the rule version and the last run', async () => {
    // The embedded database serves one connection: the test's pool gives it to the job.
    if (db.embedded) await db.knex.destroy();
    const config = loadConfig({
      DATABASE_URL: db.url,
      PORT: '0',
      LOG_LEVEL: 'silent',
      POINTS_PER_USD: '5',
    });
    const version = ruleVersion(pointsRuleOf(config));
    let service: RunningService | undefined;
    try {
      service = await startRankJobService(config, createLogger({ name: 't', level: 'silent' }), {
        everySeconds: 3600,
      });
      const address = service.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      let health: Record<string, unknown> = {};
      for (let i = 0; i < 200 && !health.last_run; i++) {
        health = (await (await fetch(`${base}/health`)).json()) as Record<string, unknown>;
        if (!health.last_run) await new Promise((r) => setTimeout(r, 50));
      }
      expect(health).toMatchObject({
        status: 'ok',
        rule_version: version,
        every_seconds: 3600,
        last_run: {
          mode: 'rebuild',
          reason: 'rule_changed',
          rule_version: version,
          senders: 2,
          ranks_changed: { mainnet: 0, devnet: 0 },
        },
      });
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain(
        `monitoring_rank_job_points_rule_info{rule_version="${version}"} 1`,
      );
      expect(metrics).toContain('monitoring_rank_job_runs_total{mode="rebuild",outcome="ok"} 1');
      expect(metrics).toMatch(/monitoring_rank_job_last_success_timestamp_seconds \d+/);
      expect(metrics).toMatch(/monitoring_rank_job_last_run_duration_seconds\{step="points"\} /);
    } finally {
      await service?.close();
      await new Promise<void>((resolve) => service?.server.close(() => resolve()) ?? resolve());
    }
    const check = createAdminKnex(db.url, { poolMax: 1 });
    try {
      const state = await check.raw<{ rows: { rule_version: string }[] }>(
        'select rule_version from points_state',
      );
      expect(state.rows).toEqual([{ rule_version: version }]);
    } finally {
      await check.destroy();
    }
  });
});
