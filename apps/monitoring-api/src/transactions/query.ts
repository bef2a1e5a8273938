/**
 * Query parameters of the feeds (docs/api.md "Transaction feeds";
 * docs/decisions.md "D27. Strict query parameters"). Both feeds take the same parameters.
 */
import { z } from 'zod';
import { domainParam, limitParam, sendersParam, unixTimeParam } from '../params.js';

/** Default page size of both feeds. */
export const FEED_DEFAULT_LIMIT = 10;
/** Largest page size; larger values are clamped. */
export const FEED_MAX_LIMIT = 100;

/** The feed query schema (strict: unknown parameters are a 400). */
export const FeedQuery = z
  .strictObject({
    senders: sendersParam.optional(),
    /** Address, hash, or `.eth` / `.sol` name; checked further by the route. */
    addr_or_tx_hash: z
      .string()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .optional(),
    source_domain: domainParam.optional(),
    destination_domain: domainParam.optional(),
    start_time: unixTimeParam.optional(),
    end_time: unixTimeParam.optional(),
    limit: limitParam(FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT),
    /** `<unix_ts>_<id>`; decoded by `parseCursor` (400 INVALID_CURSOR). */
    cursor: z.string().max(64, 'is too long').optional(),
  })
  .refine(
    (q) => q.start_time === undefined || q.end_time === undefined || q.start_time <= q.end_time,
    {
      message: 'start_time must not be after end_time',
      path: ['start_time'],
    },
  );
export type FeedQuery = z.output<typeof FeedQuery>;
