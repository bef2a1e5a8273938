/**
 * Query parameters and responses of the statistics endpoints (docs/api.md "Volume statistics",
 * "Fee statistics", "Counts and chain shares"; docs/decisions.md "D30. Statistics defaults and
 * buckets"). Each query schema validates the request and, through its `.openapi()` metadata, is
 * the endpoint's parameter list in the OpenAPI document (openapi.ts): defaults and bounds are
 * written once, here. The responses are the shared schemas of @ctss/domain-types.
 */
import { FeePeriod, z } from '@ctss/domain-types';
import { MAX_SENDERS, addressListParam, limitParam, offsetParam } from '../params.js';

export {
  ChainSharesResponse,
  FeeSeriesResponse,
  TotalVolumeResponse,
  TransactionCountResponse,
  UniqueSendersResponse,
  UserVolumeResponse,
  VolumeSeriesResponse,
} from '@ctss/domain-types';

/** Default and largest bucket counts: hourly 24 (max 720), daily 30 (max 365). */
const SERIES_LIMITS = {
  hourly: { fallback: 24, max: 720 },
  daily: { fallback: 30, max: 365 },
} as const;

/** Largest `offset` of the fee series, in buckets (about ten years of days, a year of hours). */
const MAX_SERIES_OFFSET = 8_760;

/** A documented optional query string parameter. */
const doc = (description: string, example?: string) =>
  example === undefined ? { description } : { description, example };

/** `limit` of a volume series: buckets, default and clamp of `period` (SERIES_LIMITS). */
const seriesLimit = (period: FeePeriod) => {
  const { fallback, max } = SERIES_LIMITS[period];
  return limitParam(fallback, max).openapi({
    type: 'string',
    ...doc(`Buckets, default ${fallback}, clamped at ${max}.`, String(fallback)),
  });
};

/** `GET /stats/mainnet/volumes`: optional senders. */
export const VolumesQuery = z.strictObject({
  senders: addressListParam
    .optional()
    .openapi(doc(`Comma-separated sender addresses (at most ${MAX_SENDERS}).`)),
});

/** `GET /stats/mainnet/volumes/hourly`. */
export const HourlyQuery = z.strictObject({ limit: seriesLimit('hourly') });

/** `GET /stats/mainnet/volumes/daily`. */
export const DailyQuery = z.strictObject({ limit: seriesLimit('daily') });

/**
 * The parameters of `GET /stats/mainnet/fees` as they arrive: period (default hourly), limit (0
 * when absent: the period's default, see {@link FeesQuery}), offset (buckets skipped back from
 * the newest, default 0).
 */
export const FeesQueryParams = z.strictObject({
  period: FeePeriod.optional()
    .transform((value) => value ?? 'hourly')
    .openapi(doc('`hourly` (default) or `daily`.', 'hourly')),
  limit: limitParam(0, SERIES_LIMITS.hourly.max).openapi({
    type: 'string',
    ...doc(
      `Buckets; default ${SERIES_LIMITS.hourly.fallback} hourly / ${SERIES_LIMITS.daily.fallback} daily, clamped at ${SERIES_LIMITS.hourly.max} / ${SERIES_LIMITS.daily.max}.`,
    ),
  }),
  offset: offsetParam(MAX_SERIES_OFFSET).openapi({
    type: 'string',
    ...doc(`Buckets skipped back from the newest, default 0, at most ${MAX_SERIES_OFFSET}.`, '0'),
  }),
});

/** `GET /stats/mainnet/fees`: {@link FeesQueryParams} with the limit's default and clamp by period. */
export const FeesQuery = FeesQueryParams.transform((q) => {
  const bounds = SERIES_LIMITS[q.period];
  return { ...q, limit: q.limit === 0 ? bounds.fallback : Math.min(q.limit, bounds.max) };
});

/** Endpoints without parameters. */
export const NoQuery = z.strictObject({});
