/**
 * Child entry of the PostgreSQL fallback: serves the monitoring API's embedded PGlite
 * (apps/monitoring-api `db/embedded`) with a durable data directory on a fixed port, so the
 * suite can stop it and start it again on the same data. Used only when the PostgreSQL
 * binaries are absent. Arguments: `<dataDir> <port> [--seed]`; `--seed` migrates and loads a
 * small demo dataset with INSERTs (dist/bin/seed.js streams COPY, which PGlite's socket server does
 * not carry). Stops cleanly on SIGTERM.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './settings.js';

interface Closable {
  destroy(): Promise<void>;
}
interface Database {
  close(): Promise<void>;
}
interface EmbeddedModule {
  startEmbeddedPostgres: (options: {
    dataDir?: string;
    port?: number;
    maxConnections?: number;
  }) => Promise<{ url: string; stop(): Promise<void> }>;
}
interface ConnectModule {
  WRITER_STATEMENT_TIMEOUTS_MS: { readonly seed: number };
  createAdminKnex: (url: string, options: { poolMax: number }) => Closable;
  createWriterDatabase: (
    url: string,
    options: { poolMax: number; timeouts: { statementTimeoutMs: number } },
  ) => Database;
}
interface MigrationsModule {
  migrateLatest: (knex: Closable) => Promise<unknown>;
}
interface SeedModule {
  seedDemoData: (
    db: Database,
    options: { transactions: number; users: number; seed: number; now: Date; method: 'insert' },
  ) => Promise<unknown>;
}

const load = async <T>(file: string) =>
  (await import(pathToFileURL(path.join(REPO_ROOT, 'apps/monitoring-api/dist', file)).href)) as T;

/** Fallback dataset: smaller than dist/bin/seed.js's, since INSERTs into PGlite are slow. */
const FALLBACK_SEED = { transactions: 5000, users: 500, seed: 42 };

const [dataDir, port, flag] = process.argv.slice(2);
if (!dataDir || !port) throw new Error('usage: embedded-postgres.js <dataDir> <port> [--seed]');
const { startEmbeddedPostgres } = await load<EmbeddedModule>('db/embedded.js');
const pg = await startEmbeddedPostgres({ dataDir, port: Number(port), maxConnections: 32 });
if (flag === '--seed') {
  const { WRITER_STATEMENT_TIMEOUTS_MS, createAdminKnex, createWriterDatabase } =
    await load<ConnectModule>('db/connect.js');
  const { migrateLatest } = await load<MigrationsModule>('migrations/index.js');
  const { seedDemoData } = await load<SeedModule>('seed/index.js');
  const knex = createAdminKnex(pg.url, { poolMax: 1 });
  await migrateLatest(knex);
  await knex.destroy();
  // The seed's statement timeout, as dist/bin/seed.js has it (0 = none: docs/decisions.md
  // "D250. The indexer, the rank job and the seed on the database layer").
  const db = createWriterDatabase(pg.url, {
    poolMax: 1,
    timeouts: { statementTimeoutMs: WRITER_STATEMENT_TIMEOUTS_MS.seed },
  });
  const seeded = await seedDemoData(db, { ...FALLBACK_SEED, now: new Date(), method: 'insert' });
  process.stdout.write(`${JSON.stringify({ seeded })}\n`);
  await db.close();
}
process.stdout.write(`embedded PostgreSQL (PGlite) listening: ${pg.url}\n`);
process.once('SIGTERM', () => {
  void pg.stop().finally(() => process.exit(0));
});
