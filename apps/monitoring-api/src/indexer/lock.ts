/**
 * One writer per chain (docs/indexer.md "One writer per chain"): a PostgreSQL session advisory
 * lock (`pg_try_advisory_lock`, https://www.postgresql.org/docs/15/functions-admin.html) held on
 * one connection reserved from the indexer's database handle (db/database.ts `reserve`: admitted
 * by its circuit breaker, with its timeouts) for as long as the process indexes the chain. The
 * lock is session scoped, so it outlives every statement and transaction on that connection and
 * is released when the connection ends: a crashed writer's lock frees itself, and a writer that
 * lost its connection stops writing (the cursor compare-and-set in store.ts fences any write in
 * flight).
 */
import type { Database, ReservedConnection } from '../db/database.js';

/** Takes a chain's lock if free (the lock key is the chain name hashed by PostgreSQL). */
const TRY_LOCK_SQL = `select pg_try_advisory_lock(hashtextextended('ctss-indexer:' || $1, 0)) as ok`;

/** An advisory lock per chain name over one reserved connection. */
export class ChainLocks {
  private connection: ReservedConnection | undefined;
  private connecting: Promise<ReservedConnection> | undefined;
  private readonly held = new Set<string>();

  /** @param database the indexer's handle (the primary); one of its connections is kept. */
  constructor(private readonly database: Database) {}

  /** The reserved connection, taken once even when several chains ask at the same time. */
  private reserved(): Promise<ReservedConnection> {
    this.connecting ??= this.database.reserve().then(
      (connection) => {
        this.connection = connection;
        connection.onLost(() => {
          // Every lock of the session is gone with it.
          if (this.connection !== connection) return;
          this.held.clear();
          this.connection = undefined;
          this.connecting = undefined;
          connection.release();
        });
        return connection;
      },
      (error: unknown) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }

  /** Whether this process holds the chain's lock now. */
  holds(chain: string): boolean {
    return this.held.has(chain);
  }

  /**
   * Takes the chain's lock if free.
   *
   * @returns true when held (already or now), false when another session holds it.
   * @throws what {@link Database.reserve} throws (DependencyUnavailableError while the database
   *         is known down), or the statement's error.
   */
  async tryAcquire(chain: string): Promise<boolean> {
    if (this.held.has(chain)) return true;
    const connection = await this.reserved();
    const row = await connection.first<{ ok: boolean }>(TRY_LOCK_SQL, [chain]);
    if (row?.ok) this.held.add(chain);
    return this.held.has(chain);
  }

  /** Releases every lock by closing the reserved connection. */
  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connection = undefined;
    this.connecting = undefined;
    this.held.clear();
    const connection = await connecting?.catch(() => undefined);
    connection?.release();
  }
}
