/**
 * The DefiLlama figures from the rollup sums (docs/api.md "DefiLlama adapters"; docs/decisions.md
 * "D57. DefiLlama figures"): which buckets a window reads, and base units to USD.
 */
import type { Knex } from 'knex';
import { windowSums, type WindowRanges } from './repository.js';
import type { BridgeVolumeResponse, FeesResponse } from './schemas.js';

const DAY_SECONDS = 86_400;

/**
 * Splits the hour-aligned window `[from, to)` (UNIX seconds) into the hours before its first
 * whole UTC day, its whole days and the hours after them; a window inside one day is all
 * leading hours. The three ranges are disjoint and cover the window exactly.
 */
export function splitWindow(from: number, to: number): WindowRanges {
  const firstDay = Math.ceil(from / DAY_SECONDS) * DAY_SECONDS;
  const lastDay = Math.floor(to / DAY_SECONDS) * DAY_SECONDS;
  if (firstDay >= lastDay) {
    return { leadingHours: [from, to], days: [to, to], trailingHours: [to, to] };
  }
  return {
    leadingHours: [from, firstDay],
    days: [firstDay, lastDay],
    trailingHours: [lastDay, to],
  };
}

/** Base units (6 decimals, USDC at 1 USD) to a float of USD, as every `_usd` field. */
const toUsd = (amount: bigint): number => Number(amount) / 1e6;

/**
 * Volume, fees and revenue of mainnet transfers created in `[from, to)`.
 *
 * @throws the database error of the read (see repository.ts).
 */
export async function feesOverWindow(knex: Knex, from: number, to: number): Promise<FeesResponse> {
  const sums = await windowSums(knex, splitWindow(from, to));
  return {
    volumeUsd: toUsd(sums.volume),
    feesUsd: toUsd(sums.fee),
    revenuesUsd: toUsd(sums.relayerFee),
    protocolRevenueUsd: toUsd(sums.relayerFee),
  };
}

/**
 * Bridged volume of mainnet transfers created in `[from, to)`.
 *
 * @throws the database error of the read (see repository.ts).
 */
export async function volumeOverWindow(
  knex: Knex,
  from: number,
  to: number,
): Promise<BridgeVolumeResponse> {
  const sums = await windowSums(knex, splitWindow(from, to));
  return { volumeUsd: toUsd(sums.volume) };
}
