-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).
-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.

-- ChainLocks.tryAcquire
select pg_try_advisory_lock(hashtextextended('ctss-indexer:' || $1, 0)) as ok;

-- readCursor (none yet: the name-only cursor adopted)
select block_number, block_hash, safe_block from indexer_cursors
      where network = $1 and domain = $2
      limit 1;

-- readCursor (none yet: the name-only cursor adopted)
update indexer_cursors set network = $2, domain = $3
      where chain = $1 and domain is null
      returning block_number, block_hash, safe_block;

-- writeBatch: the first range (the cursor inserted)
begin;

-- writeBatch: the first range (the cursor inserted)
insert into indexer_cursors
         (chain, network, domain, block_number, block_hash, safe_block, confirmed_time)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (network, domain) where domain is not null do nothing;

-- writeBatch: the first range (the cursor inserted)
delete from indexer_block_hashes where network = $1 and domain = $2 and block_number > $3;

-- writeBatch: the first range (the cursor inserted)
insert into indexer_block_hashes (network, domain, block_number, block_hash)
     values ($1, $2, $3, $4)
     on conflict (network, domain, block_number) do update set block_hash = excluded.block_hash;

-- writeBatch: the first range (the cursor inserted)
delete from indexer_block_hashes
      where network = $1 and domain = $2 and block_number < (
        select block_number from indexer_block_hashes where network = $1 and domain = $2
         order by block_number desc offset $3 limit 1);

-- writeBatch: the first range (the cursor inserted)
insert into transactions (network, source_domain, source_tx_hash, destination_domain, sender, recipient, deposit_amount, receive_amount, relayer_fee, gas_drop_amount, is_gas_drop_in_native, max_fee, confirmed, created_at, log_index, block_number, block_hash, version, cctp_nonce, message_hash, min_finality_threshold)
  select network, source_domain, source_tx_hash, destination_domain, sender, recipient, deposit_amount, receive_amount, relayer_fee, gas_drop_amount, is_gas_drop_in_native, max_fee, confirmed, created_at, log_index, block_number, block_hash, version, cctp_nonce, message_hash, min_finality_threshold from jsonb_populate_recordset(null::transactions, $1::jsonb)
  on conflict (network, source_domain, source_tx_hash, log_index) do update
     set block_number = excluded.block_number, block_hash = excluded.block_hash,
         created_at = excluded.created_at, confirmed = excluded.confirmed
   where (transactions.block_hash, transactions.created_at, transactions.confirmed)
         is distinct from (excluded.block_hash, excluded.created_at, excluded.confirmed)
  returning id::text, (xmax = 0) as inserted;

-- writeBatch: the first range (the cursor inserted)
insert into cctp_received (network, destination_domain, source_domain, version, nonce, tx_hash, log_index, block_number, block_hash, mint_amount, fee_executed, received_at)
  select network, destination_domain, source_domain, version, nonce, tx_hash, log_index, block_number, block_hash, mint_amount, fee_executed, received_at from jsonb_populate_recordset(null::cctp_received, $1::jsonb)
  on conflict (network, destination_domain, tx_hash, log_index) do update
     set block_number = excluded.block_number, block_hash = excluded.block_hash,
         mint_amount = excluded.mint_amount, fee_executed = excluded.fee_executed,
         received_at = excluded.received_at;

-- writeBatch: the first range (the cursor inserted)
update transactions set confirmed = true
        where network = $1 and source_domain = $2 and log_index is not null and not confirmed
          and block_number <= $3;

-- writeBatch: the first range (the cursor inserted)
update transactions t
    set destination_tx_hash = r.tx_hash,
        receive_amount = coalesce(r.mint_amount, t.receive_amount),
        destination_tx_status = 'success',
        fee_executed = coalesce(r.fee_executed, t.fee_executed),
        received_at = r.received_at,
        attested_at = coalesce(t.attested_at, r.received_at)
   from cctp_received r
  where t.log_index is not null and t.destination_tx_hash is null and t.cctp_nonce is not null
    and r.network = t.network and r.destination_domain = t.destination_domain
    and r.source_domain = t.source_domain and r.version = t.version and r.nonce = t.cctp_nonce
    and t.id = any($1::bigint[]);

-- writeBatch: the first range (the cursor inserted)
update transactions t
    set destination_tx_hash = r.tx_hash,
        receive_amount = coalesce(r.mint_amount, t.receive_amount),
        destination_tx_status = 'success',
        fee_executed = coalesce(r.fee_executed, t.fee_executed),
        received_at = r.received_at,
        attested_at = coalesce(t.attested_at, r.received_at)
   from cctp_received r
  where t.log_index is not null and t.destination_tx_hash is null and t.cctp_nonce is not null
    and r.network = t.network and r.destination_domain = t.destination_domain
    and r.source_domain = t.source_domain and r.version = t.version and r.nonce = t.cctp_nonce
    and r.network = $1 and r.destination_domain = $2 and r.tx_hash = any($3::text[]);

-- writeBatch: the first range (the cursor inserted)
commit;

-- writeBatch: the next range (the cursor moved)
update indexer_cursors
              set chain = $5, block_number = $6, block_hash = $7,
                  safe_block = coalesce($8::bigint, least(safe_block, $6)),
                  confirmed_time = coalesce($9::timestamptz,
                                            case when safe_block <= $6 then confirmed_time end),
                  updated_at = now()
            where network = $1 and domain = $2 and block_number = $3 and block_hash = $4;

-- dueAttestations: one chain
select network, source_tx_hash, source_domain, version, max(iris_attempts) as attempts,
            extract(epoch from now() - min(created_at))::text as age_seconds
       from transactions
      where log_index is not null and not attested
        and (iris_next_at is null or iris_next_at <= now())
        and ($1::text is null or (network = $1 and source_domain = $2))
      group by network, source_tx_hash, source_domain, version
      order by min(iris_attempts), min(iris_next_at) nulls first, min(created_at) desc
      limit $3;

-- indexedRecordsOf
select id from transactions
      where network = $1 and source_tx_hash = $2 and source_domain = $3 and log_index is not null
      order by log_index;

-- deferAttestationCheck
update transactions set iris_next_at = now() + make_interval(secs => $4)
      where network = $1 and source_tx_hash = $2 and source_domain = $3
        and log_index is not null and not attested;

-- recordAttestationAnswers
update transactions
              set iris_checked_at = now(), iris_attempts = iris_attempts + 1,
                  iris_next_at = now() + make_interval(secs => $2)
            where id = $1;

-- recordAttestationAnswers
update transactions
    set attested = true, has_attestation_error = false,
        iris_checked_at = now(), iris_attempts = iris_attempts + 1, iris_next_at = null,
        attested_at = coalesce(attested_at, now()),
        message_hash = case when $2::int = 2 then coalesce($3::text, message_hash)
                            else coalesce(message_hash, $3::text) end,
        cctp_nonce = case when $2::int = 2 then $4::text else coalesce(cctp_nonce, $4::text) end
  where id = $1;

-- flagOverdueAttestations
update transactions set has_attestation_error = true
      where ($1::text is null or (network = $1 and source_domain = $2))
        and log_index is not null and not attested and not has_attestation_error
        and created_at < now() - make_interval(secs => $3);

-- PgRateGate.acquire
insert into iris_rate as r (name, next_at)
       values ($1, clock_timestamp() + make_interval(secs => $2))
       on conflict (name) do update
         set next_at = greatest(r.next_at, clock_timestamp()) + make_interval(secs => $2)
       returning greatest(0, extract(epoch from (r.next_at - clock_timestamp())) - $2) * 1000
         as wait_ms;

-- PgRateGate.pause
insert into iris_rate as r (name, next_at)
       values ($1, clock_timestamp() + make_interval(secs => $2))
       on conflict (name) do update
         set next_at = greatest(r.next_at, clock_timestamp() + make_interval(secs => $2));

-- awaitedReceives
select id::text as id, source_domain, version, cctp_nonce from transactions
      where network = $1 and destination_domain = $2 and log_index is not null
        and destination_tx_hash is null and cctp_nonce is not null
      order by created_at desc
      limit $3;

-- storedBlocksAbove
select distinct block_number, block_hash from transactions
      where network = $1 and source_domain = $2 and log_index is not null and block_number > $3
     union
     select distinct block_number, block_hash from cctp_received
      where network = $1 and destination_domain = $2 and block_number > $3;

-- anchorsAtOrBelow
select block_number, block_hash from indexer_block_hashes
      where network = $1 and domain = $2 and block_number <= $3
     union
     select distinct block_number, block_hash from transactions
      where network = $1 and source_domain = $2 and log_index is not null and block_number <= $3
     union
     select distinct block_number, block_hash from cctp_received
      where network = $1 and destination_domain = $2 and block_number <= $3
     order by block_number desc, block_hash;

-- deleteUnfinalized
delete from transactions
      where network = $1 and source_domain = $2 and not confirmed and log_index is not null
        and block_number <= $3 and not (source_tx_hash = any($4::text[]));

-- rewind: back before the first block
delete from indexer_cursors
            where network = $1 and domain = $2 and block_number = $3 and block_hash = $4;

-- rewind: back before the first block
delete from indexer_block_hashes where network = $1 and domain = $2;

-- rewind: back before the first block
delete from cctp_received
        where network = $1 and destination_domain = $2 and block_number > $3
          and not (block_number::text || ':' || block_hash = any($4::text[]))
        returning tx_hash;

-- rewind: back before the first block
update transactions
            set destination_tx_hash = null, destination_tx_status = 'pending',
                receive_amount = deposit_amount - relayer_fee,
                received_at = null, fee_executed = null
          where network = $1 and destination_domain = $2 and destination_tx_hash = any($3::text[]);

-- rewind: back before the first block
delete from transactions
        where network = $1 and source_domain = $2 and block_number > $3
          and not (block_number::text || ':' || block_hash = any($4::text[]))
          and log_index is not null;
