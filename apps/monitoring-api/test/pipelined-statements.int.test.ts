/**
 * Prepared statements pipelined on shared pool connections (db/lanes.ts), against a
 * real PostgreSQL: concurrent statements get their own answers, use at most the configured number
 * of connections, a failing statement does not disturb the ones around it, and a connection that
 * dies mid-pipeline fails only the statements on it while later ones run on a new connection.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDatabase } from '../src/db/connect.js';
import type { Database } from '../src/db/database.js';
import { prepare } from '../src/db/statements.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const ECHO = prepare('test_echo', 'select $1::int as n, pg_backend_pid() as pid');
const SLOW_ECHO = prepare(
  'test_slow',
  'select $1::int as n, pg_backend_pid() as pid, pg_sleep(0.2)',
);
const DIVIDE = prepare('test_divide', 'select 100 / $1::int');

const realServer = Boolean(process.env.DATABASE_URL);
const describeReal = realServer ? describe : describe.skip;

describeReal('pipelined prepared statements (real PostgreSQL)', () => {
  let db: TestDatabase;
  let knex: Database;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = createDatabase(db.url, { poolMax: 4, pipelineLanes: 2 });
  });
  afterAll(async () => {
    await knex.close();
    await db.drop();
  });

  it('when 50 statements run at once, then each gets its own answer over at most 2 connections', async () => {
    const rows = await Promise.all(Array.from({ length: 50 }, (_, i) => knex.arrays(ECHO, [i])));
    expect(rows.map((r) => r[0]![0])).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const pids = new Set(rows.map((r) => r[0]![1]));
    expect(pids.size).toBeGreaterThanOrEqual(1);
    expect(pids.size).toBeLessThanOrEqual(2);
  });

  it('when the lanes are busy, then the other statements still get one of the other connections', async () => {
    const slow = Array.from({ length: 6 }, (_, i) => knex.arrays(SLOW_ECHO, [i]));
    const other = await knex.execute<{ pid: number }>('select pg_backend_pid() as pid');
    const lanePids = new Set((await Promise.all(slow)).map((r) => r[0]![1]));
    expect(lanePids.size).toBeLessThanOrEqual(2);
    expect(lanePids.has(other.rows[0]!.pid)).toBe(false);
  });

  it('when one pipelined statement fails, then the statements around it on the lane still answer', async () => {
    const results = await Promise.allSettled([5, 0, 4, 0, 2].map((d) => knex.arrays(DIVIDE, [d])));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value[0]![0]] : []))).toEqual([
      20, 25, 50,
    ]);
    const reasons = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(reasons.map((e) => (e as { code?: string }).code)).toEqual(['22012', '22012']);
  });

  it('when a lane connection dies mid-pipeline, then its statements fail and later ones use a new connection', async () => {
    const inflight = Array.from({ length: 4 }, (_, i) => knex.arrays(SLOW_ECHO, [i]));
    const pids = (
      await knex.execute<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and query like '%pg_sleep(0.2)%' and pid <> pg_backend_pid()",
      )
    ).rows.map((r) => r.pid);
    expect(pids.length).toBeGreaterThan(0);
    await knex.execute('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    const settled = await Promise.allSettled(inflight);
    expect(settled.some((r) => r.status === 'rejected')).toBe(true);
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => knex.arrays(ECHO, [i])));
    expect(after.map((r) => r[0]![0])).toEqual(Array.from({ length: 10 }, (_, i) => i));
    const newPids = new Set(after.map((r) => r[0]![1] as number));
    for (const pid of pids) expect(newPids.has(pid)).toBe(false);
  });
});
