-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).
-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.

-- recomputePoints: first run (rebuild)
begin;

-- recomputePoints: first run (rebuild)
select pg_advisory_xact_lock($1::bigint);

-- recomputePoints: first run (rebuild)
select rule_version from points_state where id = 1;

-- recomputePoints: first run (rebuild)
delete from points_dirty;

-- recomputePoints: first run (rebuild)
create temp table points_scope on commit drop as
        select network, sender from transactions
        union select network, sender from wallet_swap_points;

-- recomputePoints: first run (rebuild)
create index on points_scope (network, sender);

-- recomputePoints: first run (rebuild)
analyze points_scope;

-- recomputePoints: first run (rebuild)
select count(*)::int as n from points_scope;

-- recomputePoints: first run (rebuild)
create temp table points_keys on commit drop as
      select distinct w.chain_type, w.address_key
        from wallet_swap_points w join points_scope s using (network, sender);

-- recomputePoints: first run (rebuild)
delete from wallet_swap_points w using points_scope s
      where w.network = s.network and w.sender = s.sender;

-- recomputePoints: first run (rebuild)
insert into wallet_swap_points (network, sender, chain_type, address_key, points_micro, transfer_count, rule_version)
      select network, sender, chain_type, (case chain_type
    when 'solana' then sender
    when 'aptos' then '0x' || lpad(lower(substr(sender, 3)), 64, '0')
    else lower(sender) end), points_micro, transfer_count, $1
        from (
          select t.network, t.sender, (case t.source_domain when 5 then 'solana' when 8 then 'sui' when 9 then 'aptos' else 'evm' end) as chain_type,
                 sum(div(t.deposit_amount::numeric * 1000000 * coalesce(greatest(case when true and t.source_domain = 0 and t.created_at >= '2026-01-01T00:00:00.000Z'::timestamptz then 20000 end), 10000), 10000000000)) as points_micro,
                 count(*) as transfer_count
            from transactions t join points_scope s on s.network = t.network and s.sender = t.sender
           where t.confirmed and not t.has_source_tx_error and not t.has_attestation_error
   and not t.has_destination_tx_error and t.destination_tx_status <> 'failed'
           group by 1, 2, 3
        ) computed;

-- recomputePoints: first run (rebuild)
insert into points_keys
      select distinct w.chain_type, w.address_key
        from wallet_swap_points w join points_scope s using (network, sender);

-- recomputePoints: first run (rebuild)
insert into wallet_points as p (chain_type, address_key, swap_points, swap_points_mainnet,
                                      total_points_multiplied, total_points_multiplied_mainnet)
      select k.chain_type, k.address_key,
             coalesce(sum(w.points_micro) filter (where w.network = 'testnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'mainnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'testnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'mainnet'), 0) / 1000000
        from (select distinct chain_type, address_key from points_keys) k
        left join wallet_swap_points w on w.chain_type = k.chain_type and w.address_key = k.address_key
       group by k.chain_type, k.address_key
       order by k.chain_type, k.address_key
      on conflict (chain_type, address_key) do update
         set swap_points = excluded.swap_points,
             swap_points_mainnet = excluded.swap_points_mainnet,
             total_points_multiplied = excluded.swap_points * p.points_multiplier,
             total_points_multiplied_mainnet = excluded.swap_points_mainnet * p.points_multiplier,
             updated_at = now();

-- recomputePoints: first run (rebuild)
insert into points_state (id, rule_version, per_usd_micro, multipliers, rebuilt_at, ran_at)
       values (1, $1, $2, $3::jsonb, now(), now())
       on conflict (id) do update set rule_version = excluded.rule_version,
         per_usd_micro = excluded.per_usd_micro, multipliers = excluded.multipliers,
         rebuilt_at = case when $4 then now() else points_state.rebuilt_at end, ran_at = now();

-- recomputePoints: first run (rebuild)
commit;

-- recomputePoints: incremental
select 1 from wallet_swap_points where rule_version <> $1 limit 1;

-- recomputePoints: incremental
create temp table points_scope on commit drop as
        with taken as (delete from points_dirty returning network, sender)
        select distinct network, sender from taken;

-- recomputeRanks
update users as target
           set domain_rank_mainnet = ranked.rank
          from (
            select id, row_number() over (order by domain_total_multiplied_points desc, id asc)::int as rank
              from (
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
         where true
         group by w.user_id
      ) wt on wt.user_id = u.id
     where true) totals
          ) ranked
         where target.id = ranked.id
           and target.domain_rank_mainnet is distinct from ranked.rank;

-- recomputeRanks
update users as target
           set domain_rank_devnet = ranked.rank
          from (
            select id, row_number() over (order by domain_total_multiplied_points desc, id asc)::int as rank
              from (
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
         where true
         group by w.user_id
      ) wt on wt.user_id = u.id
     where true) totals
          ) ranked
         where target.id = ranked.id
           and target.domain_rank_devnet is distinct from ranked.rank;
