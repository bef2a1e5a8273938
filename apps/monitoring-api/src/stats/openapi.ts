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
    "Lifetime volume (base units); with senders, those senders' volume (UserVolumeResponse)",
    z.union([TotalVolumeResponse, UserVolumeResponse]),
    VolumesQuery,
  );
  registerGet(
    registry,
    '/stats/mainnet/volumes/hourly',
    'Hourly volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    HourlyQuery,
  );
  registerGet(
    registry,
    '/stats/mainnet/volumes/daily',
    'Daily volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    DailyQuery,
  );
  registerGet(
    registry,
    '/stats/mainnet/fees',
    'Fees per bucket: total_fee_usd = sum(deposit - receive), total_relayer_fee_usd = sum(relayer_fee)',
    FeeSeriesResponse,
    FeesQueryParams,
  );
  registerGet(
    registry,
    '/stats/mainnet/transactions',
    'Number of mainnet transfers',
    TransactionCountResponse,
  );
  registerGet(
    registry,
    '/stats/mainnet/chain-shares',
    'Lifetime volume per source domain; share = amount / total_amount',
    ChainSharesResponse,
  );
  registerGet(
    registry,
    '/stats/mainnet/wallets',
    'Distinct mainnet senders',
    UniqueSendersResponse,
  );
  registerGet(registry, '/stats/wallets', 'Distinct testnet/devnet senders', UniqueSendersResponse);
}
