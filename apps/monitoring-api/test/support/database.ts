/**
 * A fresh, migrated database per test file: a uniquely named database on DATABASE_URL's server
 * (CI: PostgreSQL 15), or an embedded in-memory PGlite when DATABASE_URL is unset.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { createAdminKnex, createDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrateLatest, migrations } from '../../src/migrations/index.js';
import { useResource } from './hooks.js';

/** A database owned by one test file. */
export interface TestDatabase {
  /** Connection URL of the database. */
  readonly url: string;
  /** A knex with a connection of its own (public knex API), for fixtures and the migrations. */
  readonly knex: Knex;
  /** The database layer over the database (db/database.ts), as the app's services use it. */
  readonly database: Database;
  /** Whether this is the embedded PGlite (one connection) rather than a real server. */
  readonly embedded: boolean;
  /** Closes the pool and drops the database (or stops the embedded server). */
  drop(): Promise<void>;
}

/** Options of {@link createTestDatabase}. */
export interface TestDatabaseOptions {
  /** Run every migration (default true). */
  readonly migrate?: boolean;
}

/** Creates and (by default) migrates a database of its own for the calling test file. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  let db: TestDatabase;
  if (base) {
    const name = `ctss_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(base);
    url.pathname = `/${name}`;
    const knex = createAdminKnex(url.toString(), { poolMax: 4 });
    // Two of the four connections pipeline the hot reads, as DATABASE_PIPELINE_LANES does in production.
    const database = createDatabase(url.toString(), { poolMax: 4, pipelineLanes: 2 });
    db = {
      url: url.toString(),
      knex,
      database,
      embedded: false,
      async drop() {
        await Promise.all([knex.destroy(), database.close()]);
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        try {
          await client.query(`drop database if exists ${name} with (force)`);
        } finally {
          await client.end();
        }
      },
    };
  } else {
    // A fresh PGlite initdb takes seconds; starting from a cached data directory takes < 1 s.
    const server = await startEmbeddedPostgres({
      loadDataDir: await pgliteTemplate(options.migrate ?? true),
    }).catch(
      // A template from another PGlite version may not load: rebuild it once.
      async () =>
        startEmbeddedPostgres({ loadDataDir: await pgliteTemplate(options.migrate ?? true, true) }),
    );
    const knex = createAdminKnex(server.url, { poolMax: 1 });
    // Two connections: the indexer's chain locks keep one reserved (db/database.ts `reserve`),
    // as the indexer process's own pool does; the server runs one statement at a time anyway.
    const database = createDatabase(server.url, { poolMax: 2, sessionShared: true });
    db = {
      url: server.url,
      knex,
      database,
      embedded: true,
      async drop() {
        await Promise.all([knex.destroy(), database.close()]);
        await server.stop();
      },
    };
  }
  if (options.migrate ?? true) await migrateLatest(db.knex);
  return db;
}

/**
 * A PGlite data directory tarball, empty or migrated, cached in the OS temp directory under a hash
 * of the migration code (a changed migration builds a new template). Concurrent builders write
 * their own file and rename it into place.
 */
async function pgliteTemplate(migrated: boolean, rebuild = false): Promise<Blob> {
  const code = migrated
    ? migrations.map((m) => `${m.name}\n${m.up.toString()}\n${m.down.toString()}`).join('\n')
    : 'empty';
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const path = join(tmpdir(), `ctss-monitoring-pglite-${hash}.tar.gz`);
  try {
    if (rebuild) throw new Error('rebuild requested');
    return new Blob([await readFile(path)]);
  } catch {
    const server = await startEmbeddedPostgres();
    if (migrated) {
      const knex = createAdminKnex(server.url, { poolMax: 1 });
      await migrateLatest(knex);
      await knex.destroy();
    }
    const dump = await server.dumpDataDir();
    await server.stop();
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(temporary, Buffer.from(await dump.arrayBuffer()));
    await rename(temporary, path);
    return dump;
  }
}

/**
 * A database of the calling describe block's own, made by {@link createTestDatabase} with
 * `options` before its tests and dropped after them (see {@link useResource}).
 */
export function useTestDatabase(options: TestDatabaseOptions = {}): TestDatabase {
  return useResource(
    () => createTestDatabase(options),
    (db) => db.drop(),
  );
}
