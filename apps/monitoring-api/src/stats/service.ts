/**
 * The statistics (docs/api.md "Volume statistics", "Fee statistics", "Counts and chain shares"):
 * each answer built from the repository's sums and typed by its @ctss/domain-types response
 * schema. Amounts stay bigint base units; `_usd` fields are floats of whole USDC (amount / 10^6).
 */
import type { Clock } from '../clock.js';
import type { Databases } from '../db/connect.js';
import type { TransferNetwork } from '@ctss/domain-types';
import {
  PERIOD_MS,
  networkTotals,
  sendersVolume,
  uniqueSenders,
  volumeBySourceDomain,
  volumeSeries,
  type Period,
} from './repository.js';
import type * as Responses from './schemas.js';

/** Base units (6 decimals) to a float of whole units, for `_usd` fields. */
const toUsd = (amount: bigint): number => Number(amount) / 1e6;

/** What the statistics read: the read pool and the clock (series end at the current bucket). */
export interface StatsServiceDeps {
  readonly db: Pick<Databases, 'read'>;
  readonly clock: Clock;
}

/** The mainnet statistics and the distinct senders of both networks. */
export interface StatsService {
  /** Lifetime mainnet volume, base units. */
  totalVolume(): Promise<Responses.TotalVolumeResponse>;
  /** Lifetime mainnet volume of `senders` (normalized addresses), base units. */
  sendersVolume(senders: readonly string[]): Promise<Responses.UserVolumeResponse>;
  /** The newest `limit` buckets of `period`, oldest first, USD. */
  volumeSeries(period: Period, limit: number): Promise<Responses.VolumeSeriesResponse>;
  /** `limit` fee buckets of `period` ending `offset` buckets before the current one, USD. */
  feeSeries(period: Period, limit: number, offset: number): Promise<Responses.FeeSeriesResponse>;
  /** Number of mainnet transfers. */
  transactionCount(): Promise<Responses.TransactionCountResponse>;
  /** Lifetime mainnet volume per source domain with the total, base units. */
  chainShares(): Promise<Responses.ChainSharesResponse>;
  /** Distinct senders of `network`. */
  uniqueSenders(network: TransferNetwork): Promise<Responses.UniqueSendersResponse>;
  /** The index of the current bucket of `period` (UNIX milliseconds / bucket width). */
  currentBucket(period: Period): number;
}

/**
 * The statistics over `deps.db.read`.
 *
 * @throws (from every read) the database error of the query (a 503 or 500 through the problem
 *         handler).
 */
export function createStatsService(deps: StatsServiceDeps): StatsService {
  const series = (period: Period, limit: number, offset = 0) =>
    volumeSeries(deps.db.read, 'mainnet', period, limit, new Date(deps.clock()), offset);
  return {
    async totalVolume() {
      return {
        total_volume: (await networkTotals(deps.db.read, 'mainnet')).volume,
        user_volume: null,
        volumes: null,
      };
    },
    async sendersVolume(senders) {
      return { user_volume: await sendersVolume(deps.db.read, 'mainnet', senders), volumes: null };
    },
    async volumeSeries(period, limit) {
      return {
        volumes: (await series(period, limit)).map((b) => ({
          bucket_start: b.start.toISOString(),
          total_volume_usd: toUsd(b.volume),
        })),
      };
    },
    async feeSeries(period, limit, offset) {
      return {
        fees: (await series(period, limit, offset)).map((b) => ({
          bucket_start: b.start.toISOString(),
          total_fee_usd: toUsd(b.fee),
          total_relayer_fee_usd: toUsd(b.relayerFee),
        })),
        period_type: period,
        limit,
        offset,
      };
    },
    async transactionCount() {
      return {
        total_transactions: Number((await networkTotals(deps.db.read, 'mainnet')).count),
      };
    },
    async chainShares() {
      const shares = await volumeBySourceDomain(deps.db.read, 'mainnet');
      const total = shares.reduce((sum, share) => sum + share.amount, 0n);
      return {
        chain_shares: shares.map((s) => ({
          domain: s.domain,
          amount: s.amount,
          total_amount: total,
        })),
      };
    },
    async uniqueSenders(network) {
      return { unique_senders_count: await uniqueSenders(deps.db.read, network) };
    },
    currentBucket(period) {
      return Math.floor(deps.clock() / PERIOD_MS[period]);
    },
  };
}
