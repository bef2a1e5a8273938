-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).
-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.

-- volumeSeries: hourly
with agg as (select bucket, sum(volume) as volume, sum(fee) as fee, sum(relayer_fee) as relayer_fee
           from tx_hourly_rollups
          where network = $1 and bucket >= $2 and bucket < $3
          group by bucket)
     select g.bucket,
            coalesce(agg.volume, 0)::text as volume,
            coalesce(agg.fee, 0)::text as fee,
            coalesce(agg.relayer_fee, 0)::text as relayer_fee
       from generate_series($4::timestamptz, $5::timestamptz, $6::interval) as g(bucket)
       left join agg on agg.bucket = g.bucket
      order by g.bucket;

-- volumeSeries: daily
with agg as (select bucket, volume, fee, relayer_fee
           from tx_daily_rollups
          where network = $1 and bucket >= $2 and bucket < $3)
     select g.bucket,
            coalesce(agg.volume, 0)::text as volume,
            coalesce(agg.fee, 0)::text as fee,
            coalesce(agg.relayer_fee, 0)::text as relayer_fee
       from generate_series($4::timestamptz, $5::timestamptz, $6::interval) as g(bucket)
       left join agg on agg.bucket = g.bucket
      order by g.bucket;

-- networkTotals
select volume::text as volume, tx_count::text as count, senders::text as senders
     from tx_network_totals where network = $1;

-- volumeBySourceDomain
select source_domain, volume::text as amount
     from tx_domain_totals where network = $1
    order by volume desc, source_domain;

-- sendersVolume
select coalesce(sum(deposit_amount), 0)::text as volume
     from transactions where network = $1 and sender = any($2::text[]);
