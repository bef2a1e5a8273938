-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).
-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.

-- windowSums
select coalesce(sum(volume), 0)::text as volume,
          coalesce(sum(fee), 0)::text as fee,
          coalesce(sum(relayer_fee), 0)::text as relayer_fee
     from (select deposit_amount::numeric as volume,
                  (deposit_amount - receive_amount)::numeric as fee,
                  relayer_fee::numeric as relayer_fee
             from transactions
            where network = 'mainnet' and created_at >= to_timestamp($1::int8) and created_at < to_timestamp($2::int8)
           union all
           select volume, fee, relayer_fee from tx_hourly_rollups
            where network = 'mainnet' and bucket >= to_timestamp($3::int8) and bucket < to_timestamp($4::int8)
           union all
           select volume, fee, relayer_fee from tx_daily_rollups
            where network = 'mainnet' and bucket >= to_timestamp($5::int8) and bucket < to_timestamp($6::int8)
           union all
           select volume, fee, relayer_fee from tx_hourly_rollups
            where network = 'mainnet' and bucket >= to_timestamp($7::int8) and bucket < to_timestamp($8::int8)
           union all
           select deposit_amount::numeric, (deposit_amount - receive_amount)::numeric, relayer_fee::numeric
             from transactions
            where network = 'mainnet' and created_at >= to_timestamp($9::int8) and created_at < to_timestamp($10::int8)) s;
