/**
 * The indexer's watermark for the closed-window workload: the benchmark data is seeded, not
 * indexed, so no chain has a cursor; this writes one per mainnet source domain of the data with
 * `confirmed_time` = now (every seeded window lies before it), as the indexer would once it has
 * passed them (apps/monitoring-api indexer/cursor.ts), and returns the `FEED_INDEXED_CHAINS`
 * value naming those chains. The rows are the only indexer state of the benchmark database.
 */
import pg from 'pg';

/**
 * Writes the cursors (see the module comment).
 *
 * @returns `mainnet:<domain>,...` for `FEED_INDEXED_CHAINS`.
 * @throws PostgreSQL errors (e.g. a database migrated before `confirmed_time` existed).
 */
export async function markIndexedThroughNow(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const domains = await client.query<{ domain: string }>(
      `select distinct source_domain::text as domain from transactions where network = 'mainnet'`,
    );
    for (const { domain } of domains.rows) {
      await client.query(
        `insert into indexer_cursors
           (chain, network, domain, block_number, block_hash, safe_block, confirmed_time)
         values ($1, 'mainnet', $2, 0, '0x0', 0, now())
         on conflict (network, domain) where domain is not null
         do update set confirmed_time = excluded.confirmed_time`,
        [`bench-${domain}`, domain],
      );
    }
    return domains.rows.map((r) => `mainnet:${r.domain}`).join(',');
  } finally {
    await client.end();
  }
}
