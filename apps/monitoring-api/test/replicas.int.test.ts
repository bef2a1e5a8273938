/**
 * Read replicas (docs/decisions.md "D37. Read replicas"): reads go to healthy replicas round robin, a replica that
 * fails its probe is skipped, and with none healthy reads fall back to the primary. Separate
 * databases stand in for the primary and the replicas, told apart by a marker table.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import { createDatabases } from '../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { onHeldConnections } from './support/held-connections.js';

const logger = createLogger({ name: 'replicas-test', level: 'silent' });
const DEAD = 'postgres://postgres@127.0.0.1:1/none';

describe('read replicas', () => {
  const dbs: TestDatabase[] = [];
  beforeAll(async () => {
    for (const name of ['primary', 'replica_a', 'replica_b']) {
      const db = await createTestDatabase({ migrate: false });
      await db.knex.raw(`create table marker as select '${name}'::text as name`);
      dbs.push(db);
    }
    // Three embedded databases start one after the other: seconds each on a slow host.
  }, 120_000);
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  /** Which database each of `n` (at most the pool size) fresh read connections lands on. */
  async function readTargets(primaryUrl: string, readUrls: string[], n: number): Promise<string[]> {
    const handles = createDatabases({ primaryUrl, readUrls, poolMax: 1 }, logger);
    try {
      await handles.refreshReplicaHealth();
      // Hold n connections at once, so each one is a new physical connection chosen by the pool.
      const names = (await onHeldConnections(
        handles.read,
        n,
        'select name from marker',
      )) as string[];
      expect((await handles.primary.first<{ name: string }>('select name from marker'))!.name).toBe(
        'primary',
      );
      return names;
    } finally {
      await handles.close();
    }
  }

  it('when two replicas are healthy, then new read connections alternate between them', async () => {
    const targets = await readTargets(dbs[0]!.url, [dbs[1]!.url, dbs[2]!.url], 2);
    expect(targets.sort()).toEqual(['replica_a', 'replica_b']);
  });

  it('when a replica is down, then reads skip it', async () => {
    expect(await readTargets(dbs[0]!.url, [DEAD, dbs[2]!.url], 2)).toEqual([
      'replica_b',
      'replica_b',
    ]);
  });

  it('when every replica is down, then reads fall back to the primary', async () => {
    expect(await readTargets(dbs[0]!.url, [DEAD, DEAD], 2)).toEqual(['primary', 'primary']);
  });
});
