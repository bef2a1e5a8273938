/**
 * Query parameters of the statistics endpoints (docs/api.md "Volume statistics", "Fee statistics",
 * "Counts and chain shares"; docs/decisions.md "D30. Statistics defaults and buckets").
 */
import { FeePeriod } from '@ctss/domain-types';
import { z } from 'zod';
import { limitParam, offsetParam, sendersParam } from '../params.js';

/** Default and largest bucket counts: hourly 24 (max 720), daily 30 (max 365). */
export const SERIES_LIMITS = {
  hourly: { fallback: 24, max: 720 },
  daily: { fallback: 30, max: 365 },
} as const;

/** Largest `offset` of the fee series, in buckets (about ten years of days, a year of hours). */
export const MAX_SERIES_OFFSET = 8_760;

/** `GET /stats/mainnet/volumes`: optional senders. */
export const VolumesQuery = z.strictObject({ senders: sendersParam.optional() });

/** `GET /stats/mainnet/volumes/hourly`. */
export const HourlyQuery = z.strictObject({
  limit: limitParam(SERIES_LIMITS.hourly.fallback, SERIES_LIMITS.hourly.max),
});

/** `GET /stats/mainnet/volumes/daily`. */
export const DailyQuery = z.strictObject({
  limit: limitParam(SERIES_LIMITS.daily.fallback, SERIES_LIMITS.daily.max),
});

/**
 * `GET /stats/mainnet/fees`: period (default hourly), limit (default and maximum by period),
 * offset (buckets skipped back from the newest, default 0).
 */
export const FeesQuery = z
  .strictObject({
    period: FeePeriod.optional().transform((value) => value ?? 'hourly'),
    limit: limitParam(0, SERIES_LIMITS.hourly.max),
    offset: offsetParam(MAX_SERIES_OFFSET),
  })
  .transform((q) => {
    const bounds = SERIES_LIMITS[q.period];
    return { ...q, limit: q.limit === 0 ? bounds.fallback : Math.min(q.limit, bounds.max) };
  });

/** Endpoints without parameters. */
export const NoQuery = z.strictObject({});
