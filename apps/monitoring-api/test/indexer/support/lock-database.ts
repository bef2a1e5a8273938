/**
 * The chains' locks over a pool of their own, as the indexer process holds them (docs/indexer.md
 * "One writer per chain"): a lock keeps one connection reserved for its life, so it must not take
 * it from the served app's pool (one connection on the embedded server).
 */
import { createDatabase } from '../../../src/db/connect.js';
import { ChainLocks } from '../../../src/indexer/lock.js';
import type { TestDatabase } from '../../support/database.js';

/** Chain locks on their own one-connection pool over `db`; `close()` releases both, once. */
export function openChainLocks(db: TestDatabase): { locks: ChainLocks; close(): Promise<void> } {
  const database = createDatabase(db.url, { poolMax: 1, sessionShared: db.embedded });
  const locks = new ChainLocks(database);
  let closed: Promise<void> | undefined;
  return {
    locks,
    close() {
      closed ??= locks.close().then(() => database.close());
      return closed;
    },
  };
}
