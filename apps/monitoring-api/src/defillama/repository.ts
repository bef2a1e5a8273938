/**
 * SQL of the DefiLlama figures (docs/decisions.md "D57. DefiLlama figures"): sums of the
 * trigger-kept rollups over a window, whole UTC days from `tx_daily_rollups` and the hours at
 * either end from `tx_hourly_rollups`, so a window costs its days plus at most 46 hours of
 * buckets, never a scan of `transactions`.
 */
import type { Knex } from 'knex';
import { prepare, queryPreparedRows } from '../db/prepared.js';

/**
 * The three ranges a window is read from, UNIX seconds, each `[start, end)` (an empty range has
 * start = end): the hours before the first whole day, the whole days, the hours after them.
 */
export interface WindowRanges {
  readonly leadingHours: readonly [number, number];
  readonly days: readonly [number, number];
  readonly trailingHours: readonly [number, number];
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

/** `$1`..`$6`: leading hours, days, trailing hours, UNIX seconds. Mainnet only. */
const WINDOW_SUMS = prepare(
  'defillama_window',
  `select coalesce(sum(volume), 0)::text as volume,
          coalesce(sum(fee), 0)::text as fee,
          coalesce(sum(relayer_fee), 0)::text as relayer_fee
     from (select volume, fee, relayer_fee from tx_hourly_rollups
            where network = 'mainnet' and bucket >= to_timestamp($1::int8) and bucket < to_timestamp($2::int8)
           union all
           select volume, fee, relayer_fee from tx_daily_rollups
            where network = 'mainnet' and bucket >= to_timestamp($3::int8) and bucket < to_timestamp($4::int8)
           union all
           select volume, fee, relayer_fee from tx_hourly_rollups
            where network = 'mainnet' and bucket >= to_timestamp($5::int8) and bucket < to_timestamp($6::int8)) s`,
);

/**
 * Sums the mainnet rollups over `ranges`.
 *
 * @throws the PostgreSQL error of the statement (a 500 or 503 through the problem handler).
 */
export async function windowSums(knex: Knex, ranges: WindowRanges): Promise<WindowSums> {
  const [row] = await queryPreparedRows<{ volume: string; fee: string; relayer_fee: string }>(
    knex,
    WINDOW_SUMS,
    [...ranges.leadingHours, ...ranges.days, ...ranges.trailingHours],
  );
  return {
    volume: BigInt(row?.volume ?? 0),
    fee: BigInt(row?.fee ?? 0),
    relayerFee: BigInt(row?.relayer_fee ?? 0),
  };
}
