/**
 * Demo data: transfers (src/seed/transactions.ts) and then users with points and wallets
 * (src/seed/users.ts, the users module), deterministic for a given seed. Used by the embedded
 * start (`src/server.ts`) and by `node dist/bin/seed.js` (also for benchmark volumes).
 */
import type { Session } from '../db/statements.js';
import { createRng } from './rng.js';
import { generateTransactions } from './transactions.js';
import { seedUsers } from './users.js';
import { copyTransactions, insertTransactions } from './writer.js';

/** Options of {@link seedDemoData}. */
export interface SeedOptions {
  /** Number of transfer records (both networks). */
  readonly transactions: number;
  /** Number of users. */
  readonly users: number;
  /** PRNG seed (same seed, same data). */
  readonly seed: number;
  /** End of the 60-day range of the data. */
  readonly now: Date;
  /** `copy` streams with COPY over its own connection to `url` (real PostgreSQL); `insert` batches INSERTs. */
  readonly method: 'insert' | 'copy';
  /** Connection URL, required for `copy`. */
  readonly url?: string;
  /** Rows per COPY statement (default 200,000). */
  readonly copyRowsPerStatement?: number;
  /** Suffix of generated usernames (config USERNAME_SUFFIX, e.g. `.ctss`). */
  readonly usernameSuffix?: string;
}

/** Counts and timings of a seed run. */
export interface SeedResult {
  /** Transfer records written (both networks). */
  readonly transactions: number;
  /** Users written (0 when none were asked for). */
  readonly users: number;
  /** Time spent writing the transfers, milliseconds (rounded). */
  readonly transactionsMs: number;
  /** Time spent writing the users and recomputing the ranks, milliseconds (rounded). */
  readonly usersMs: number;
}

/**
 * Writes demo data into a migrated database (docs/architecture.md "Services and processes", the
 * Seed row; docs/decisions.md "D311. The seeded share of pending transfers"): the transfers of
 * `options` generated from `options.seed` (seed/transactions.ts), by batched INSERTs on `db` or
 * COPY over a connection of its own to `options.url`, then, when `options.users` > 0, the users
 * with their wallets, points, referrals and NFT stakes and the stored ranks (seed/users.ts). Not one
 * transaction: what was written before a failure stays.
 *
 * @returns the counts written and the time each part took ({@link SeedResult}).
 * @throws Error when `method` is `copy` without `url`; the database errors of the writes (e.g. a
 *         unique violation when the users of the seed are already there).
 */
export async function seedDemoData(db: Session, options: SeedOptions): Promise<SeedResult> {
  const rng = createRng(options.seed);
  const records = generateTransactions(rng.fork('transactions'), {
    count: options.transactions,
    now: options.now,
  });
  const started = performance.now();
  let transactions: number;
  if (options.method === 'copy') {
    if (!options.url) throw new Error('seed: method copy needs a database url');
    transactions = await copyTransactions(options.url, records, options.copyRowsPerStatement);
  } else {
    transactions = await insertTransactions(db, records);
  }
  const afterTransactions = performance.now();
  const users =
    options.users > 0
      ? await seedUsers(db, rng.fork('users'), {
          users: options.users,
          now: options.now,
          ...(options.usernameSuffix ? { usernameSuffix: options.usernameSuffix } : {}),
        })
      : 0;
  return {
    transactions,
    users,
    transactionsMs: Math.round(afterTransactions - started),
    usersMs: Math.round(performance.now() - afterTransactions),
  };
}
