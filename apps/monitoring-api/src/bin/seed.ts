/**
 * `node dist/bin/seed.js [--transactions N] [--users N] [--seed S] [--truncate]` (the `db:seed`
 * script): migrates DATABASE_URL and writes deterministic demo data, with COPY for speed.
 * Defaults: 20000 transactions, 2000 users, seed 42. `--truncate` empties the transfer tables first.
 * Into an empty table, 100,000 rows or more load with the secondary indexes built afterwards.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import {
  createAdminKnex,
  createWriterDatabase,
  WRITER_STATEMENT_TIMEOUTS_MS,
} from '../db/connect.js';
import { migrateLatest } from '../migrations/index.js';
import { seedDemoData } from '../seed/index.js';
import { withIndexesDeferred } from '../seed/writer.js';

const count = (text: string | undefined, fallback: number, name: string): number => {
  if (text === undefined) return fallback;
  if (!/^[0-9]{1,9}$/.test(text)) throw new Error(`--${name} must be a non-negative integer`);
  return Number(text);
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string' },
      users: { type: 'string' },
      seed: { type: 'string' },
      truncate: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  const url = config.DATABASE_URL;
  if (!url)
    throw new Error('DATABASE_URL must be set (the embedded database seeds itself at start)');
  const knex = createAdminKnex(url, { poolMax: 1 });
  try {
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  // The load's statements (COPY, index builds) run without a statement timeout.
  const db = createWriterDatabase(url, {
    poolMax: 4,
    timeouts: { statementTimeoutMs: WRITER_STATEMENT_TIMEOUTS_MS.seed },
  });
  try {
    if (values.truncate) {
      await db.execute('truncate transactions, tx_hourly_rollups, tx_senders restart identity');
    }
    const options = {
      transactions: count(values.transactions, 20_000, 'transactions'),
      users: count(values.users, 2_000, 'users'),
      seed: count(values.seed, 42, 'seed'),
      now: new Date(),
      method: 'copy' as const,
      url,
      usernameSuffix: config.USERNAME_SUFFIX,
    };
    const empty = (await db.first('select id from transactions limit 1')) === undefined;
    // Into an empty table, load first and build the secondary indexes afterwards (much faster).
    const result =
      empty && options.transactions >= 100_000
        ? await withIndexesDeferred(db, () => seedDemoData(db, options))
        : await seedDemoData(db, options);
    process.stdout.write(`${JSON.stringify({ seeded: result })}\n`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
