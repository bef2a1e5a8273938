/**
 * `node dist/bin/migrate.js [up|down]` (the `db:migrate` script): applies every pending migration to
 * DATABASE_URL (`up`, default) or reverts all of them (`down`).
 */
import { createAdminKnex } from '../db/connect.js';
import { migrateLatest, migrateRollbackAll } from '../migrations/index.js';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must be set');
  const direction = process.argv[2] ?? 'up';
  if (direction !== 'up' && direction !== 'down') throw new Error('usage: migrate.js [up|down]');
  const knex = createAdminKnex(url, { poolMax: 1 });
  try {
    if (direction === 'up') {
      const applied = await migrateLatest(knex);
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
    } else {
      await migrateRollbackAll(knex);
      process.stdout.write(`${JSON.stringify({ reverted: 'all' })}\n`);
    }
  } finally {
    await knex.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
