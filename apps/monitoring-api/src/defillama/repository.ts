/**
 * SQL of the DefiLlama figures (docs/decisions.md "D57. DefiLlama figures", "D68. DefiLlama
 * windows of any alignment"): sums over a window of the trigger-kept rollups, whole UTC days from
 * `tx_daily_rollups` and whole hours from `tx_hourly_rollups`, plus the records of the partial
 * hours at either end read from `transactions` through its `(network, created_at, id)` index. A
 * window costs its days, at most 46 hourly buckets per domain and the records of its two partial
 * hours, never a scan of the whole window's records.
 */
import type { Queryable } from '../db/statements.js';
import { prepare } from '../db/statements.js';

/** A range of UNIX seconds `[start, end)`; an empty range has start = end. */
type SecondsRange = readonly [number, number];

/**
 * The five disjoint ranges a window is read from, UNIX seconds, each `[start, end)`, in order:
 * the records before the first whole hour, the whole hours before the first whole day, the whole
 * days, the whole hours after them, the records after the last whole hour.
 */
export interface WindowRanges {
  readonly leadingRecords: SecondsRange;
  readonly leadingHours: SecondsRange;
  readonly days: SecondsRange;
  readonly trailingHours: SecondsRange;
  readonly trailingRecords: SecondsRange;
}

/** Sums over a window, base units (exact integers). */
export interface WindowSums {
  /** sum(deposit_amount). */
  readonly volume: bigint;
  /** sum(deposit_amount - receive_amount). */
  readonly fee: bigint;
  /** sum(relayer_fee). */
  readonly relayerFee: bigint;
}

/**
 * `$1`..`$10`: the ranges of {@link WindowRanges} in order, UNIX seconds. Mainnet only. A record
 * counts by its `created_at` (whole seconds), the rollups by their bucket start, so each range
 * takes exactly the records created in it.
 */
const WINDOW_SUMS = prepare(
  'defillama_window',
  `select coalesce(sum(volume), 0)::text as volume,
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
            where network = 'mainnet' and created_at >= to_timestamp($9::int8) and created_at < to_timestamp($10::int8)) s`,
);

/**
 * Sums the mainnet rollups and edge records over `ranges`.
 *
 * @throws the PostgreSQL error of the statement (a 500 or 503 through the problem handler).
 */
export async function windowSums(db: Queryable, ranges: WindowRanges): Promise<WindowSums> {
  const [row] = await db.rows<{ volume: string; fee: string; relayer_fee: string }>(WINDOW_SUMS, [
    ...ranges.leadingRecords,
    ...ranges.leadingHours,
    ...ranges.days,
    ...ranges.trailingHours,
    ...ranges.trailingRecords,
  ]);
  return {
    volume: BigInt(row?.volume ?? 0),
    fee: BigInt(row?.fee ?? 0),
    relayerFee: BigInt(row?.relayer_fee ?? 0),
  };
}
