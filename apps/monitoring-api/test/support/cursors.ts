/**
 * A chain's indexer cursor as the indexer writes it (`indexer_cursors`, docs/decisions.md "D160.
 * Closed feed windows and the indexer's watermark"), for the tests of closed windows: what the
 * watermark reads is each configured chain's `confirmed_time`.
 */
import type { Knex } from 'knex';

/**
 * Sets the cursor of `network`'s chain `domain` with its confirmed time `seconds` (UNIX seconds),
 * replacing the one there.
 * @throws the database's error
 */
export async function setConfirmed(
  knex: Knex,
  domain: number,
  seconds: number,
  network: 'mainnet' | 'testnet' = 'mainnet',
): Promise<void> {
  await knex.raw(
    `insert into indexer_cursors (chain, network, domain, block_number, block_hash, safe_block, confirmed_time)
     values (?, ?, ?, 100, '0xabc', 100, to_timestamp(?))
     on conflict (network, domain) where domain is not null
     do update set confirmed_time = excluded.confirmed_time`,
    [`${network}-chain-${domain}`, network, domain, seconds],
  );
}
