/**
 * The points rule version on every computed row (docs/decisions.md "D210. The points rule version
 * on every row, and the job's health"; src/points/recompute.ts): `wallet_swap_points.rule_version`
 * is the version of the rule the row was computed with (the first 12 hex digits of SHA-256 over
 * the canonical rule, src/points/rule.ts). Existing rows take the version of `points_state` (the
 * rule they were written under), `unknown` without one.
 */
import type { Knex } from 'knex';

/** Adds the column and backfills it. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table wallet_swap_points add column rule_version text;
    update wallet_swap_points
       set rule_version = coalesce((select rule_version from points_state where id = 1), 'unknown');
    alter table wallet_swap_points alter column rule_version set not null;
  `);
}

/** Drops the column. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table wallet_swap_points drop column if exists rule_version`);
}
