/**
 * The point formulas of a user on one network, as SQL (one place, used by the leaderboard, the
 * domain aggregate and the rank job). Over the wallets bound to the user:
 *
 *   total_base_points              = sum(base)        base = swap_points_mainnet | swap_points (devnet)
 *   domain_total_multiplied_points = (sum(multiplied) + nft_points on mainnet) * domain_multiplier
 *                                    multiplied = total_points_multiplied_mainnet | total_points_multiplied
 *   referral_points                = REFERRAL_SHARE * sum(domain_total_multiplied_points of referees)
 *   total_points_with_referrals    = domain_total_multiplied_points + referral_points
 *
 * Values are double precision (docs/api.md "Units and amounts": point fields are floats,
 * database aggregates).
 */
import type { LeaderboardNetwork } from '@ctss/domain-types';

/** Share of each referee's domain total credited to the referrer. */
export const REFERRAL_SHARE = 0.1;

const COLUMNS: Record<LeaderboardNetwork, { base: string; multiplied: string; nft: string }> = {
  mainnet: {
    base: 'swap_points_mainnet',
    multiplied: 'total_points_multiplied_mainnet',
    nft: 'u.nft_points',
  },
  devnet: { base: 'swap_points', multiplied: 'total_points_multiplied', nft: '0' },
};

/** Rank column of a network on `users`. */
export function rankColumn(
  network: LeaderboardNetwork,
): 'domain_rank_mainnet' | 'domain_rank_devnet' {
  return network === 'mainnet' ? 'domain_rank_mainnet' : 'domain_rank_devnet';
}

/**
 * A select of (id, wallet_count, total_base_points, domain_total_multiplied_points) for the users
 * whose id is in `scopeIds` (an SQL subquery returning ids, e.g. `select id from page`), or for
 * every user when `scopeIds` is undefined. LeaderboardNetwork columns are fixed identifiers from
 * {@link COLUMNS}, never user input.
 */
export function ownTotalsSql(network: LeaderboardNetwork, scopeIds?: string): string {
  const c = COLUMNS[network];
  const outer = scopeIds ? `u.id in (${scopeIds})` : 'true';
  const inner = scopeIds ? `w.user_id in (${scopeIds})` : 'true';
  return `
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + ${c.nft}) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.${c.base}, 0)) as base,
               sum(coalesce(p.${c.multiplied}, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where ${inner}
         group by w.user_id
      ) wt on wt.user_id = u.id
     where ${outer}`;
}
