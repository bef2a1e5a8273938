/**
 * The head-latency poller of `pnpm bench:indexer` (src/indexer/process.ts `pollArrivals`) on a real
 * PostgreSQL (`DATABASE_URL`, default the local server): a temporary `transactions` table of the
 * columns it reads, rows written as the indexer writes them (first unconfirmed, then confirmed).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { pollArrivals } from '../src/indexer/process.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let db: pg.Pool;

beforeAll(async () => {
  // One connection: the temporary table is visible to it only.
  db = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  await db.query(
    `create temporary table transactions (source_tx_hash text primary key, confirmed boolean not null)`,
  );
});

afterAll(async () => {
  await db.end().catch(() => undefined);
});

/** Waits (up to 5 s) until `ok()` holds. */
async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition not reached in 5 s');
    await sleep(10);
  }
}

describe('pollArrivals', () => {
  it('notes when each watched record is first read, then first read confirmed', async () => {
    const arrivals = pollArrivals(db, 10);
    try {
      const before = performance.now();
      arrivals.watch('0xaa');
      arrivals.watch('0xbb');
      expect(arrivals.allArrived(false)).toBe(false);
      await db.query(`insert into transactions values ('0xaa', false), ('0xcc', true)`);
      await until(() => arrivals.arrival('0xaa').inAt !== undefined);
      expect(arrivals.arrival('0xaa').inAt).toBeGreaterThanOrEqual(before);
      expect(arrivals.arrival('0xaa').confirmedAt).toBeUndefined();
      expect(arrivals.arrival('0xbb')).toEqual({});
      // A record nobody watches is not tracked.
      expect(arrivals.arrival('0xcc')).toEqual({});
      expect(arrivals.allArrived(false)).toBe(false);

      await db.query(`insert into transactions values ('0xbb', true)`);
      await until(() => arrivals.allArrived(false));
      expect(arrivals.allArrived(true)).toBe(false);
      const bb = arrivals.arrival('0xbb');
      expect(bb.confirmedAt).toBe(bb.inAt);

      await db.query(`update transactions set confirmed = true where source_tx_hash = '0xaa'`);
      await until(() => arrivals.allArrived(true));
      const aa = arrivals.arrival('0xaa');
      expect(aa.confirmedAt).toBeGreaterThan(aa.inAt!);
    } finally {
      await arrivals.stop();
    }
  });

  it('reports a failed read through allArrived', async () => {
    // A schema that does not exist first on the search path: no `transactions` table to read.
    const broken = new pg.Pool({
      connectionString: DATABASE_URL,
      max: 1,
      options: '-c search_path=bench_no_such_schema',
    });
    const arrivals = pollArrivals(broken, 10);
    arrivals.watch('0xaa');
    await until(() => {
      try {
        arrivals.allArrived(false);
        return false;
      } catch {
        return true;
      }
    });
    expect(() => arrivals.allArrived(false)).toThrow(/transactions/);
    await arrivals.stop();
    await broken.end();
  });
});
