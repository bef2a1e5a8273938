/**
 * The DefiLlama figures from the rollup sums (docs/api.md "DefiLlama adapters"; docs/decisions.md
 * "D57. DefiLlama figures", "D68. DefiLlama windows of any alignment"): which buckets and records
 * a window reads, and base units to USD.
 */
import type { Databases } from '../db/connect.js';
import { windowSums, type WindowRanges } from './repository.js';
import type { BridgeVolumeResponse, FeesResponse } from './schemas.js';

const HOUR_SECONDS = 3_600;
const DAY_SECONDS = 86_400;

/**
 * Splits the window `[from, to)` (UNIX seconds, any alignment, from < to) into five disjoint
 * ranges that cover it exactly (docs/decisions.md "D68. DefiLlama windows of any alignment"):
 * the seconds before its first whole UTC hour and after its last (read from the records), and
 * between them the whole hours before its first whole UTC day, its whole days and the whole hours
 * after them (read from the rollups). A window without a whole hour is all leading records; a
 * window without a whole day has its whole hours as leading hours.
 */
export function splitWindow(from: number, to: number): WindowRanges {
  const firstHour = Math.ceil(from / HOUR_SECONDS) * HOUR_SECONDS;
  const lastHour = Math.floor(to / HOUR_SECONDS) * HOUR_SECONDS;
  if (firstHour >= lastHour) {
    const empty = [to, to] as const;
    return {
      leadingRecords: [from, to],
      leadingHours: empty,
      days: empty,
      trailingHours: empty,
      trailingRecords: empty,
    };
  }
  const leadingRecords = [from, firstHour] as const;
  const trailingRecords = [lastHour, to] as const;
  const firstDay = Math.ceil(firstHour / DAY_SECONDS) * DAY_SECONDS;
  const lastDay = Math.floor(lastHour / DAY_SECONDS) * DAY_SECONDS;
  if (firstDay >= lastDay) {
    const empty = [lastHour, lastHour] as const;
    return {
      leadingRecords,
      leadingHours: [firstHour, lastHour],
      days: empty,
      trailingHours: empty,
      trailingRecords,
    };
  }
  return {
    leadingRecords,
    leadingHours: [firstHour, firstDay],
    days: [firstDay, lastDay],
    trailingHours: [lastDay, lastHour],
    trailingRecords,
  };
}

/** Base units (6 decimals, USDC at 1 USD) to a float of USD, as every `_usd` field. */
const toUsd = (amount: bigint): number => Number(amount) / 1e6;

/** What the DefiLlama figures read: the read pool. */
export interface DefiLlamaServiceDeps {
  readonly db: Pick<Databases, 'read'>;
}

/** The DefiLlama figures over a window `[from, to)` (UNIX seconds) of mainnet transfers. */
export interface DefiLlamaService {
  /**
   * Volume, fees and revenue of mainnet transfers created in `[from, to)`.
   *
   * @throws the database error of the read (see repository.ts).
   */
  fees(from: number, to: number): Promise<FeesResponse>;
  /**
   * Bridged volume of mainnet transfers created in `[from, to)`.
   *
   * @throws the database error of the read (see repository.ts).
   */
  volume(from: number, to: number): Promise<BridgeVolumeResponse>;
}

/** Builds the DefiLlama figures over the read pool. */
export function createDefiLlamaService(deps: DefiLlamaServiceDeps): DefiLlamaService {
  return {
    async fees(from, to) {
      const sums = await windowSums(deps.db.read, splitWindow(from, to));
      return {
        volumeUsd: toUsd(sums.volume),
        feesUsd: toUsd(sums.fee),
        revenuesUsd: toUsd(sums.relayerFee),
        protocolRevenueUsd: toUsd(sums.relayerFee),
      };
    },
    async volume(from, to) {
      const sums = await windowSums(deps.db.read, splitWindow(from, to));
      return { volumeUsd: toUsd(sums.volume) };
    },
  };
}
