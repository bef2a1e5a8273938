/**
 * Query parameters of the feeds (docs/api.md "Transaction feeds";
 * docs/decisions.md "D27. Strict query parameters"). Both feeds take the same parameters. The
 * schema validates the query and, through its `.openapi()` metadata, is the feeds' parameter
 * list in the OpenAPI document (openapi.ts): defaults and bounds are written once, here.
 */
import { DestinationTxStatus, z } from '@ctss/domain-types';
import {
  MAX_SENDERS,
  addressListParam,
  domainParam,
  limitParam,
  txHashParam,
  unixTimeParam,
} from '../params.js';

/** Default page size of both feeds. */
const FEED_DEFAULT_LIMIT = 10;
/** Largest page size; larger values are clamped. */
export const FEED_MAX_LIMIT = 100;

/** A documented optional query string parameter. */
const doc = (description: string, example?: string) =>
  example === undefined ? { description } : { description, example };

/** The feed query schema (strict: unknown parameters are a 400). */
export const FeedQuery = z
  .strictObject({
    senders: addressListParam
      .optional()
      .openapi(
        doc(
          `Comma-separated sender addresses (at most ${MAX_SENDERS}); EVM hex compares case-insensitively, base58 exactly.`,
        ),
      ),
    recipients: addressListParam
      .optional()
      .openapi(
        doc(
          `Comma-separated recipient addresses (at most ${MAX_SENDERS}); EVM hex compares case-insensitively, base58 exactly.`,
        ),
      ),
    /** Address, hash, or `.eth` / `.sol` name; checked further by the route. */
    addr_or_tx_hash: z
      .string()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .optional()
      .openapi(
        doc(
          'An address, a transaction hash, or a .eth / .sol name (resolved first; 400 INVALID_NAME when it does not resolve). Matches sender, recipient, source_tx_hash or destination_tx_hash.',
        ),
      ),
    source_domain: domainParam.optional().openapi(doc('Origin domain, any uint32.', '0')),
    destination_domain: domainParam.optional().openapi(doc('Destination domain, any uint32.', '3')),
    domain: domainParam
      .optional()
      .openapi(doc('Records with this domain as origin or as destination, any uint32.', '6')),
    status: DestinationTxStatus.optional().openapi(
      doc('`destination_tx_status` of the records: `pending`, `success` or `failed`.', 'success'),
    ),
    start_time: unixTimeParam
      .optional()
      .openapi(doc('Inclusive lower bound on created_at, UNIX seconds (UTC).')),
    end_time: unixTimeParam
      .optional()
      .openapi(doc('Exclusive upper bound on created_at, UNIX seconds (UTC).')),
    limit: limitParam(FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT).openapi({
      type: 'string',
      pattern: '^[0-9]+$',
      ...doc(
        `Page size, default ${FEED_DEFAULT_LIMIT}; values above ${FEED_MAX_LIMIT} are clamped; 0, negative or non-integer is a 400.`,
        String(FEED_DEFAULT_LIMIT),
      ),
    }),
    /** `<unix_ts>_<id>`; decoded by `parseCursor` (400 INVALID_CURSOR). */
    cursor: z
      .string()
      .max(64, 'is too long')
      .optional()
      .openapi(
        doc(
          '`next_cursor` of the previous page (`<unix_ts>_<id>`); malformed is a 400 INVALID_CURSOR.',
        ),
      ),
  })
  .refine(
    (q) => q.start_time === undefined || q.end_time === undefined || q.start_time <= q.end_time,
    {
      message: 'start_time must not be after end_time',
      path: ['start_time'],
    },
  );
export type FeedQuery = z.output<typeof FeedQuery>;

/** Path parameters of the single-record lookups `/transactionsmainnet/{source_tx_hash}`. */
export const RecordParams = z.strictObject({
  source_tx_hash: txHashParam.openapi(
    doc(
      'Origin or destination transaction hash: 0x hex (compared case-insensitively) or base58 (exactly).',
      '0x7946425d96676098621c382e45c2af304f6ec146b4a36cd029a120eb0683cc39',
    ),
  ),
});

/** The lookups take no query parameters (any is a 400). */
export const RecordQuery = z.strictObject({});
