-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).
-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.

-- createUserWithWallet
begin;

-- createUserWithWallet
insert into users (username, ref_code) values ($1, $2) returning id;

-- createUserWithWallet
insert into user_wallets (user_id, chain_type, address, address_key) values ($1, $2, $3, $4);

-- createUserWithWallet
commit;

-- findUserByUsername
select id, username, ref_code from users where lower(username) = lower($1);

-- bindAuthorizedWallet
select id from users where id = $1 for update;

-- bindAuthorizedWallet
select chain_type, address_key from user_wallets where user_id = $1;

-- unbindOwnedWallet
delete from user_wallets where user_id = $1 and chain_type = $2 and address_key = $3;

-- countUsers: everyone
select count(*)::int from users u where true;

-- countUsers: trigram search
select count(*)::int from users u where lower(u.username) like $1 escape '\';

-- countUsers: short search
select count(*)::int from users u where (lower(u.username) || '') like $1 escape '\';

-- fetchLeaderboard (mainnet): everyone
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_mainnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where true
                 order by u.domain_rank_mainnet asc nulls last, u.id asc
                 limit (select $1::int8) offset (select $2::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + u.nft_points) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points_mainnet, 0)) as base,
               sum(coalesce(p.total_points_multiplied_mainnet, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $3::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- fetchLeaderboard (mainnet): search sql
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_mainnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where lower(u.username) like (select $1::text) escape '\'
                 order by u.domain_rank_mainnet asc nulls last, u.id asc
                 limit (select $2::int8) offset (select $3::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + u.nft_points) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points_mainnet, 0)) as base,
               sum(coalesce(p.total_points_multiplied_mainnet, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $4::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- fetchLeaderboard (mainnet): search s
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_mainnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where (lower(u.username) || '') like (select $1::text) escape '\'
                 order by u.domain_rank_mainnet asc nulls last, u.id asc
                 limit (select $2::int8) offset (select $3::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + u.nft_points) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points_mainnet, 0)) as base,
               sum(coalesce(p.total_points_multiplied_mainnet, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $4::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- fetchLeaderboard (devnet): everyone
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_devnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where true
                 order by u.domain_rank_devnet asc nulls last, u.id asc
                 limit (select $1::int8) offset (select $2::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + 0) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points, 0)) as base,
               sum(coalesce(p.total_points_multiplied, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $3::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- fetchLeaderboard (devnet): search sql
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_devnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where lower(u.username) like (select $1::text) escape '\'
                 order by u.domain_rank_devnet asc nulls last, u.id asc
                 limit (select $2::int8) offset (select $3::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + 0) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points, 0)) as base,
               sum(coalesce(p.total_points_multiplied, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $4::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- fetchLeaderboard (devnet): search s
with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.domain_rank_devnet as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where (lower(u.username) || '') like (select $1::text) escape '\'
                 order by u.domain_rank_devnet asc nulls last, u.id asc
                 limit (select $2::int8) offset (select $3::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + 0) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points, 0)) as base,
               sum(coalesce(p.total_points_multiplied, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select id from scope)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select id from scope)),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $4::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc;

-- findUsersByWallets
select u.id, u.username, u.ref_code, u.nft_points
       from (
         select w.user_id, min(q.ord) as first_ord
           from unnest($1::text[], $2::text[]) with ordinality as q(chain_type, address_key, ord)
           join user_wallets w on w.chain_type = q.chain_type and w.address_key = q.address_key
          group by w.user_id
       ) m
       join users u on u.id = m.user_id
      order by m.first_ord;

-- findUsersByWallets
select w.user_id, w.chain_type, w.address,
            coalesce(p.swap_points, 0) as swap_points,
            coalesce(p.swap_points_mainnet, 0) as swap_points_mainnet,
            coalesce(p.testnet_points, 0) as testnet_points,
            coalesce(p.points_multiplier, 1) as points_multiplier,
            coalesce(p.total_points_multiplied, 0) as total_points_multiplied,
            coalesce(p.total_points_multiplied_mainnet, 0) as total_points_multiplied_mainnet
       from user_wallets w
       left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
      where w.user_id = any($1::bigint[])
      order by w.user_id, w.chain_type;

-- fetchDomainAggregate
select id, username, ref_code, staked_op_nfts, staked_eth_nfts, nft_points, domain_rank_mainnet, domain_rank_devnet
       from users where lower(username) = lower($1);

-- fetchDomainAggregate
select (select domain_total_multiplied_points from (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + u.nft_points) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points_mainnet, 0)) as base,
               sum(coalesce(p.total_points_multiplied_mainnet, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select $1::bigint)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select $1::bigint)) m) as mainnet,
            (select domain_total_multiplied_points from (
    select u.id,
           coalesce(wt.wallet_count, 0)::int as wallet_count,
           coalesce(wt.base, 0)::float8 as total_base_points,
           ((coalesce(wt.multiplied, 0) + 0) * u.domain_multiplier)::float8 as domain_total_multiplied_points
      from users u
      left join (
        select w.user_id, count(*) as wallet_count,
               sum(coalesce(p.swap_points, 0)) as base,
               sum(coalesce(p.total_points_multiplied, 0)) as multiplied
          from user_wallets w
          left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
         where w.user_id in (select $1::bigint)
         group by w.user_id
      ) wt on wt.user_id = u.id
     where u.id in (select $1::bigint)) d) as devnet;
