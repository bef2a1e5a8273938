/**
 * Losing the read replica (README "Database outages"): an own PostgreSQL server is the replica,
 * the shared test server the primary (told apart by a marker table). When the replica is killed
 * under reads, reads go on against the primary without waiting for the periodic health probe; the
 * read pool's statistics route keeps answering 200 over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKvStore, createLogger } from '@ctss/server-kit';
import { createApp } from '../src/app.js';
import {
  createAdminKnex,
  createDatabase,
  createDatabases,
  type DatabaseHandles,
} from '../src/db/connect.js';
import type { Database } from '../src/db/database.js';
import { classifyDatabaseError } from '../src/db/unavailable.js';
import { migrateLatest } from '../src/migrations/index.js';
import { aTransaction, insertAll } from './support/builders.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { buildTestDeps, type TestDeps } from './support/deps.js';
import { onHeldConnections } from './support/held-connections.js';
import { closeInOrder, listenOnLoopback, type Listening } from './support/listen.js';
import { canRunOwnPostgres, startOwnPostgres, type OwnPostgres } from './support/own-postgres.js';

const PORT = 5443;
const enabled = canRunOwnPostgres() && Boolean(process.env.DATABASE_URL);
if (!enabled)
  console.info(
    'replica loss test skipped: needs DATABASE_URL, root and PostgreSQL 15 binaries for an own server',
  );

(enabled ? describe : describe.skip)('read replica loss', () => {
  let primary: TestDatabase;
  let replica: OwnPostgres;
  let dbs: DatabaseHandles;
  let deps: TestDeps;
  let listening: Listening | undefined;
  let base: string;

  /** Which server a read lands on, or the problem code when it fails. */
  const readMarker = async (database: Database): Promise<string> => {
    try {
      return (await database.first<{ name: string }>('select name from marker'))!.name;
    } catch (err) {
      return classifyDatabaseError(err)?.code ?? `unexpected: ${String(err)}`;
    }
  };

  beforeAll(async () => {
    primary = await createTestDatabase();
    await primary.knex.raw(`create table marker as select 'primary'::text as name`);
    await insertAll(primary.database, [aTransaction(), aTransaction()]);
    replica = await startOwnPostgres(PORT);
    // The replica holds the same schema and one transfer (a different count tells the two apart).
    const setup = createAdminKnex(replica.url, { poolMax: 1 });
    await migrateLatest(setup);
    await setup.raw(`create table marker as select 'replica'::text as name`);
    await setup.destroy();
    const load = createDatabase(replica.url, { poolMax: 1 });
    await insertAll(load, [aTransaction()]);
    await load.close();
    dbs = createDatabases(
      { primaryUrl: primary.url, readUrls: [replica.url], poolMax: 3, pipelineLanes: 1 },
      createLogger({ name: 'replica-loss-test', level: 'silent' }),
    );
    await dbs.refreshReplicaHealth();
    deps = buildTestDeps({ database: dbs.primary, kv: createKvStore({ prefix: 'replica-loss:' }) });
    const app = createApp({ ...deps, db: { primary: dbs.primary, read: dbs.read } });
    listening = await listenOnLoopback(app);
    base = listening.base;
  }, 120_000);

  afterAll(async () => {
    await closeInOrder(listening, dbs, deps);
    await replica?.destroy();
    await primary?.drop();
  }, 60_000);

  /** `total_transactions` of the statistics route (read pool), uncached. */
  const totalTransactions = async (): Promise<{ status: number; total?: number }> => {
    const res = await fetch(`${base}/stats/mainnet/transactions`);
    const body = (await res.json()) as { total_transactions?: number };
    return { status: res.status, total: body.total_transactions };
  };

  it('when the replica is up, then reads go to it', async () => {
    const names = await Promise.all(Array.from({ length: 3 }, () => readMarker(dbs.read)));
    expect(names).toEqual(['replica', 'replica', 'replica']);
    expect(await readMarker(dbs.primary)).toBe('primary');
    expect(await totalTransactions()).toEqual({ status: 200, total: 1 });
  });

  it('when the replica is killed, then reads fall back to the primary at once', async () => {
    await replica.kill();
    const started = performance.now();
    // Connections open to the replica are discarded; new ones skip it when it refuses them.
    const names: string[] = [];
    for (let i = 0; i < 20; i += 1) names.push(await readMarker(dbs.read));
    const ms = performance.now() - started;
    console.info(`replica killed: 20 reads in ${ms.toFixed(0)} ms: ${names.join(',')}`);
    expect(names.every((name) => name === 'primary')).toBe(true);
    expect(ms).toBeLessThan(3_000);
    // A statistic not cached before: loaded through the read pool, from the primary's two transfers.
    const res = await fetch(`${base}/stats/mainnet/chain-shares`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/"total_amount":"?20000000"?/);
  });

  it('when the replica comes back, then the next health probe returns new reads to it', async () => {
    await replica.start();
    await dbs.refreshReplicaHealth();
    // Hold more connections than the pool had open to the primary, so new ones are opened.
    const names = await onHeldConnections(dbs.read, 3, 'select name from marker');
    expect(names).toContain('replica');
  }, 30_000);
});
