/** Statistics responses. Source: docs/api.md "Volume statistics",
 * "Fee statistics" and "Counts and chain shares". */
import { z } from '../zod.js';
import { BaseUnits, DomainId, IsoTimestamp } from './primitives.js';

/** A response of one whole-number count under `key`, e.g. `{ "total_transactions": 7994 }`. */
function countResponse<K extends string>(key: K) {
  return z.object({ [key]: z.number().int() } as Record<K, z.ZodNumber>);
}

/** A response of one list of `item`s under `key`, e.g. `{ "volumes": [...] }`. */
function listResponse<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ [key]: z.array(item) } as Record<K, z.ZodArray<T>>);
}

// docs/api.md "Volume statistics"

/** `GET /stats/mainnet/volumes` without senders: lifetime total, base units. */
export const TotalVolumeResponse = z
  .object({ total_volume: BaseUnits, user_volume: z.null(), volumes: z.null() })
  .openapi('TotalVolumeResponse');
export type TotalVolumeResponse = z.infer<typeof TotalVolumeResponse>;

/** `GET /stats/mainnet/volumes?senders=`: those senders' lifetime volume, base units. */
export const UserVolumeResponse = z
  .object({ user_volume: BaseUnits, volumes: z.null() })
  .openapi('UserVolumeResponse');
export type UserVolumeResponse = z.infer<typeof UserVolumeResponse>;

/** Volume in one UTC-aligned bucket; `_usd` is a float (amount / 10^6). */
export const VolumeBucket = z
  .object({ bucket_start: IsoTimestamp, total_volume_usd: z.number() })
  .openapi('VolumeBucket');
export type VolumeBucket = z.infer<typeof VolumeBucket>;

/** `GET /stats/mainnet/volumes/hourly|daily`. */
export const VolumeSeriesResponse = listResponse('volumes', VolumeBucket).openapi(
  'VolumeSeriesResponse',
);
export type VolumeSeriesResponse = z.infer<typeof VolumeSeriesResponse>;

// docs/api.md "Fee statistics"

/** Fees in one bucket: total_fee_usd = sum(deposit - receive), total_relayer_fee_usd = sum(relayer_fee). */
export const FeeBucket = z
  .object({
    bucket_start: IsoTimestamp,
    total_fee_usd: z.number(),
    total_relayer_fee_usd: z.number(),
  })
  .openapi('FeeBucket');
export type FeeBucket = z.infer<typeof FeeBucket>;

/** Bucket period of the fee statistics. */
export const FeePeriod = z.enum(['hourly', 'daily']);
export type FeePeriod = z.infer<typeof FeePeriod>;

/** `GET /stats/mainnet/fees`. */
export const FeeSeriesResponse = z
  .object({
    fees: z.array(FeeBucket),
    period_type: FeePeriod,
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('FeeSeriesResponse');
export type FeeSeriesResponse = z.infer<typeof FeeSeriesResponse>;

// docs/api.md "Counts and chain shares"

/** `GET /stats/mainnet/transactions`. */
export const TransactionCountResponse = countResponse('total_transactions').openapi(
  'TransactionCountResponse',
);
export type TransactionCountResponse = z.infer<typeof TransactionCountResponse>;

/** Share of one source domain: amount / total_amount, both base units. */
export const ChainShare = z
  .object({ domain: DomainId, amount: BaseUnits, total_amount: BaseUnits })
  .openapi('ChainShare');
export type ChainShare = z.infer<typeof ChainShare>;

/** `GET /stats/mainnet/chain-shares`. */
export const ChainSharesResponse = listResponse('chain_shares', ChainShare).openapi(
  'ChainSharesResponse',
);
export type ChainSharesResponse = z.infer<typeof ChainSharesResponse>;

/** `GET /stats/mainnet/wallets` and `GET /stats/wallets`: distinct senders. */
export const UniqueSendersResponse =
  countResponse('unique_senders_count').openapi('UniqueSendersResponse');
export type UniqueSendersResponse = z.infer<typeof UniqueSendersResponse>;
