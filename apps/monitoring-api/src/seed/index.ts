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
  readonly transactions: number;
  readonly users: number;
  readonly transactionsMs: number;
  readonly usersMs: number;
}

/** Writes demo data into a migrated database. */
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
