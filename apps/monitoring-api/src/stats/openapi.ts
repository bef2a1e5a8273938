/**
 * OpenAPI paths of the statistics (docs/api.md "Volume statistics", "Fee statistics", "Counts and
 * chain shares"): the parameters come from the query schemas that validate the requests and the
 * responses from the domain-types schemas that type them (schemas.ts).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@ctss/domain-types';
import { registerGet } from '../openapi-responses.js';
import {
  ChainSharesResponse,
  DailyQuery,
  FeeSeriesResponse,
  FeesQueryParams,
  HourlyQuery,
  TotalVolumeResponse,
  TransactionCountResponse,
  UniqueSendersResponse,
  UserVolumeResponse,
  VolumeSeriesResponse,
  VolumesQuery,
} from './schemas.js';

/** Registers every `/stats` path in `registry`. */
export function registerStatsPaths(registry: OpenAPIRegistry): void {
  registerGet(
    registry,
    '/stats/mainnet/volumes',
    'getVolume',
    "Lifetime volume (base units); with senders, those senders' volume (UserVolumeResponse)",
    z.union([TotalVolumeResponse, UserVolumeResponse]),
    { query: VolumesQuery },
  );
  registerGet(
    registry,
    '/stats/mainnet/volumes/hourly',
    'getHourlyVolumes',
    'Hourly volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    { query: HourlyQuery },
  );
  registerGet(
    registry,
    '/stats/mainnet/volumes/daily',
    'getDailyVolumes',
    'Daily volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    { query: DailyQuery },
  );
  registerGet(
    registry,
    '/stats/mainnet/fees',
    'getFeeSeries',
    'Fees per bucket: total_fee_usd = sum(deposit - receive), total_relayer_fee_usd = sum(relayer_fee)',
    FeeSeriesResponse,
    { query: FeesQueryParams },
  );
  registerGet(
    registry,
    '/stats/mainnet/transactions',
    'getTransactionCount',
    'Number of mainnet transfers',
    TransactionCountResponse,
  );
  registerGet(
    registry,
    '/stats/mainnet/chain-shares',
    'getChainShares',
    'Lifetime volume per source domain; share = amount / total_amount',
    ChainSharesResponse,
  );
  registerGet(
    registry,
    '/stats/mainnet/wallets',
    'getMainnetUniqueSenders',
    'Distinct mainnet senders',
    UniqueSendersResponse,
  );
  registerGet(
    registry,
    '/stats/wallets',
    'getUniqueSenders',
    'Distinct testnet/devnet senders',
    UniqueSendersResponse,
  );
}
