/**
 * Users, wallet bindings, per-wallet points, referrals, NFT stakes and stored leaderboard ranks
 * (docs/api.md "Leaderboard", "Users by wallet or username").
 *
 * - `users`: one row per username. `username` is stored with the service suffix (USERNAME_SUFFIX)
 *   and unique case-insensitively (`lower(username)`). `domain_multiplier` scales the user's
 *   points; NFT stakes (`staked_op_nfts`, `staked_eth_nfts`, `nft_points`) are per user.
 *   `domain_rank_mainnet` / `domain_rank_devnet` are the stored ranks the rank job writes
 *   (null = not ranked yet).
 * - `user_wallets`: the bindings. A wallet (chain_type, address_key) is bound to at most one user
 *   and a user has at most one wallet per chain type (the domain aggregate has one slot per
 *   chain); both are unique constraints, so concurrent binds resolve in the database.
 *   `address_key` is the normalized address (lower-case hex for evm/sui/aptos, aptos padded to 64
 *   digits; base58 as is for solana); `address` is the form shown.
 * - `wallet_points`: points per wallet, keyed like the bindings but independent of them, so
 *   points survive an unbind and follow the wallet to its next username.
 * - `referrals`: referrer -> referee (a user is referred at most once, never by itself).
 *
 * Search on usernames: with pg_trgm available (PostgreSQL 15 contrib; PGlite only when the app
 * loads the extension) a GIN trigram index on lower(username) serves `lower(username) LIKE
 * '%term%'`; without it a btree `text_pattern_ops` index serves prefix searches only and a
 * substring search scans `users` (about 10-30 ms per 100k users).
 */
import type { Knex } from 'knex';

/** Whether pg_trgm can be (or already is) installed; tried inside a savepoint so a failure does not abort the migration. */
async function tryCreateTrigramExtension(knex: Knex): Promise<boolean> {
  const available = await knex.raw<{ rows: unknown[] }>(
    `select 1 from pg_available_extensions where name = 'pg_trgm'`,
  );
  if (available.rows.length === 0) return false;
  try {
    await knex.transaction(async (savepoint) => {
      await savepoint.raw('create extension if not exists pg_trgm');
    });
    return true;
  } catch {
    // Listed but not loadable (e.g. PGlite without the contrib bundle): fall back to btree.
    return false;
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table users (
      id bigint generated always as identity primary key,
      username text not null check (length(username) between 1 and 100),
      ref_code text not null check (length(ref_code) between 1 and 32),
      domain_multiplier double precision not null default 1 check (domain_multiplier >= 0),
      staked_op_nfts integer not null default 0 check (staked_op_nfts >= 0),
      staked_eth_nfts integer not null default 0 check (staked_eth_nfts >= 0),
      nft_points double precision not null default 0 check (nft_points >= 0),
      domain_rank_mainnet integer check (domain_rank_mainnet > 0),
      domain_rank_devnet integer check (domain_rank_devnet > 0),
      created_at timestamptz not null default now()
    );
    create unique index users_username_lower_key on users (lower(username));
    create unique index users_ref_code_key on users (ref_code);
    create index users_rank_mainnet_idx on users (domain_rank_mainnet asc nulls last, id);
    create index users_rank_devnet_idx on users (domain_rank_devnet asc nulls last, id);

    create table user_wallets (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      chain_type text not null check (chain_type in ('evm', 'solana', 'sui', 'aptos')),
      address text not null check (length(address) between 1 and 128),
      address_key text not null check (length(address_key) between 1 and 128),
      bound_at timestamptz not null default now(),
      constraint user_wallets_wallet_key unique (chain_type, address_key),
      constraint user_wallets_user_chain_key unique (user_id, chain_type)
    );

    create table wallet_points (
      chain_type text not null check (chain_type in ('evm', 'solana', 'sui', 'aptos')),
      address_key text not null check (length(address_key) between 1 and 128),
      swap_points double precision not null default 0,
      swap_points_mainnet double precision not null default 0,
      testnet_points double precision not null default 0,
      points_multiplier double precision not null default 1 check (points_multiplier >= 0),
      total_points_multiplied double precision not null default 0,
      total_points_multiplied_mainnet double precision not null default 0,
      updated_at timestamptz not null default now(),
      primary key (chain_type, address_key)
    );

    create table referrals (
      referee_id bigint primary key references users (id) on delete cascade,
      referrer_id bigint not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      check (referee_id <> referrer_id)
    );
    create index referrals_referrer_idx on referrals (referrer_id);
  `);
  if (await tryCreateTrigramExtension(knex)) {
    await knex.raw(
      'create index users_username_trgm_idx on users using gin (lower(username) gin_trgm_ops)',
    );
  } else {
    await knex.raw(
      'create index users_username_prefix_idx on users (lower(username) text_pattern_ops)',
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  // pg_trgm stays installed: other schemas in the database may use it.
  await knex.raw(`
    drop table if exists referrals;
    drop table if exists wallet_points;
    drop table if exists user_wallets;
    drop table if exists users;
  `);
}
