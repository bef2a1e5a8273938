/**
 * One writer per chain (docs/indexer.md "One writer per chain"): a PostgreSQL session advisory
 * lock (`pg_try_advisory_lock`, https://www.postgresql.org/docs/15/functions-admin.html) held on
 * a dedicated connection for as long as the process indexes the chain. The lock is released
 * when that connection ends, so a crashed writer's lock frees itself; a writer that lost its
 * connection stops writing (and the cursor compare-and-set in store.ts fences any write in flight).
 */
import pg from 'pg';

/** A lock key per chain name, hashed by PostgreSQL into the bigint key space. */
const KEY_SQL = `hashtextextended('ctss-indexer:' || $1, 0)`;

/** An advisory lock per chain name over one dedicated connection. */
export class ChainLocks {
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();

  constructor(private readonly databaseUrl: string) {}

  private connecting: Promise<pg.Client> | undefined;

  /** The dedicated connection, opened once even when several chains ask at the same time. */
  private connection(): Promise<pg.Client> {
    this.connecting ??= this.open().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const lost = () => {
      // Every lock of the session is gone with it.
      if (this.client !== client) return;
      this.held.clear();
      this.client = undefined;
      this.connecting = undefined;
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  /** Whether this process holds the chain's lock now. */
  holds(chain: string): boolean {
    return this.held.has(chain);
  }

  /**
   * Takes the chain's lock if free.
   *
   * @returns true when held (already or now), false when another session holds it.
   * @throws the connection error when PostgreSQL is unreachable.
   */
  async tryAcquire(chain: string): Promise<boolean> {
    if (this.held.has(chain)) return true;
    const client = await this.connection();
    const result = await client.query<{ ok: boolean }>(
      `select pg_try_advisory_lock(${KEY_SQL}) as ok`,
      [chain],
    );
    if (result.rows[0]?.ok) this.held.add(chain);
    return this.held.has(chain);
  }

  /** Releases every lock by closing the dedicated connection. */
  async close(): Promise<void> {
    const connecting = this.connecting;
    this.client = undefined;
    this.connecting = undefined;
    this.held.clear();
    const client = await connecting?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }
}
