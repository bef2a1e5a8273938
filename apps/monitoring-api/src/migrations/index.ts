/**
 * Every migration, in order, as a static import list: knex gets them through a custom
 * `migrationSource`, so migrating works from `dist/`, from sources under Jest and in a bundled
 * image alike (no filesystem globbing).
 *
 * To add a migration: import its module below and append `{ name, ...module }` to the list.
 */
import type { Knex } from 'knex';
import * as transactions from './20261121000100_transactions.js';
import * as users from './20261121000200_users.js';
import * as totals from './20261121000300_totals.js';
import * as indexer from './20261125000100_indexer.js';
import * as feedFilters from './20261201000100_feed_filters.js';
import * as explorerFields from './20261202000100_explorer_fields.js';
import * as indexerPolling from './20261202000200_indexer_polling.js';
import * as points from './20261203000100_points.js';
import * as transactionChanges from './20261204000100_transaction_changes.js';
import * as confirmedTime from './20261205000100_confirmed_time.js';
import * as pointsRuleVersion from './20261210000100_points_rule_version.js';
import type { Migration } from './types.js';

export type { Migration } from './types.js';

/** All migrations, oldest first. */
export const migrations: readonly Migration[] = [
  { name: '20261121000100_transactions', ...transactions },
  { name: '20261121000200_users', ...users },
  { name: '20261121000300_totals', ...totals },
  { name: '20261125000100_indexer', ...indexer },
  { name: '20261201000100_feed_filters', ...feedFilters },
  { name: '20261202000100_explorer_fields', ...explorerFields },
  { name: '20261202000200_indexer_polling', ...indexerPolling },
  { name: '20261203000100_points', ...points },
  { name: '20261204000100_transaction_changes', ...transactionChanges },
  { name: '20261205000100_confirmed_time', ...confirmedTime },
  { name: '20261210000100_points_rule_version', ...pointsRuleVersion },
];

/** The knex migration source over {@link migrations}. */
const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: () => Promise.resolve([...migrations]),
  getMigrationName: (migration) => migration.name,
  getMigration: (migration) => Promise.resolve(migration),
};

/** Options for `knex.migrate.*` so every caller uses the same source and bookkeeping table. */
export const migratorConfig: Knex.MigratorConfig = {
  migrationSource,
  tableName: 'knex_migrations',
};

/**
 * Brings the schema up to date.
 *
 * @returns the names of the migrations applied now (empty when already current).
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migratorConfig)) as [number, string[]];
  return applied;
}

/** Reverts every applied migration (tests and `migrate.ts down --all`). */
export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback(migratorConfig, true);
}
