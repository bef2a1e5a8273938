/**
 * Query parameter schemas shared by the routes. Every parameter arrives as a string (express
 * "simple" query parser; a repeated parameter arrives as an array and fails as a 400). Each
 * schema bounds the length of its input, so a 10 kB value is a 400 before any work is done.
 * Decision: unknown parameters are a 400 (route schemas are strict), so a misspelt filter
 * (`sender=` for `senders=`) never silently returns unfiltered data.
 */
import { UINT32_MAX, z } from '@ctss/domain-types';

/** Largest UNIX time accepted (9999-12-31T23:59:59Z). */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/** Most addresses in a `senders` or `recipients` list. */
export const MAX_SENDERS = 50;

/** Longest address or hash accepted. */
const MAX_ADDRESS_LENGTH = 128;

/**
 * A page size or bucket count: a positive decimal integer; above `max` it is clamped to `max`
 * (docs/decisions.md "D5. Limit clamping"); zero, negative, non-integer or non-numeric is a 400.
 */
export const limitParam = (fallback: number, max: number) =>
  z
    .string()
    .max(32, 'is too long')
    .regex(/^[0-9]+$/, 'must be a positive integer')
    .transform((text) => Number(text))
    .refine((value) => value >= 1, 'must be at least 1')
    .transform((value) => Math.min(value, max))
    .optional()
    .transform((value) => value ?? fallback);

/** A non-negative integer offset, at most `max`. */
export const offsetParam = (max: number) =>
  z
    .string()
    .max(32, 'is too long')
    .regex(/^[0-9]+$/, 'must be a non-negative integer')
    .transform((text) => Number(text))
    .refine((value) => value <= max, `must be at most ${max}`)
    .optional()
    .transform((value) => value ?? 0);

/** A CCTP domain or other route id: decimal uint32. */
export const domainParam = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a decimal uint32')
  .transform((text) => Number(text))
  .refine((value) => value <= UINT32_MAX, `must be at most ${UINT32_MAX}`);

/** A UNIX timestamp in whole seconds (UTC). */
export const unixTimeParam = z
  .string()
  .regex(/^[0-9]{1,12}$/, 'must be a UNIX timestamp in whole seconds')
  .transform((text) => Number(text))
  .refine((value) => value <= MAX_UNIX_SECONDS, `must be at most ${MAX_UNIX_SECONDS}`);

const ADDRESS_PATTERN = /^[0-9A-Za-z]+$/;

/**
 * Canonical form of an address or hash for comparison: `0x` hex (EVM addresses, Sui/Aptos
 * addresses, EVM hashes) is lower-cased, as the database stores it; base58 (Solana) is exact.
 */
function normalizeAddress(value: string): string {
  return /^0x/i.test(value) ? value.toLowerCase() : value;
}

/** One address or transaction hash: 1-128 letters and digits (hex or base58), normalized. */
export const addressParam = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ADDRESS_LENGTH, `must be at most ${MAX_ADDRESS_LENGTH} characters`)
  .regex(ADDRESS_PATTERN, 'must be a hex or base58 address or hash')
  .transform(normalizeAddress);

/**
 * A comma-separated list of addresses (at most {@link MAX_SENDERS}), normalized and
 * de-duplicated. An empty value means no filter. `senders` and `recipients` of the feeds.
 */
export const addressListParam = z
  .string()
  .max(MAX_SENDERS * (MAX_ADDRESS_LENGTH + 1), 'is too long')
  .transform((text) =>
    text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(z.array(addressParam).max(MAX_SENDERS, `must list at most ${MAX_SENDERS} addresses`))
  .transform((list) => [...new Set(list)]);

/** Longest transaction hash accepted by the single-record lookups. */
const MAX_TX_HASH_LENGTH = 128;

/**
 * An origin transaction hash in a path: `0x` hex (EVM and Move chains; lower-cased, as stored) or
 * base58 (Solana; compared exactly), 1-{@link MAX_TX_HASH_LENGTH} characters.
 */
export const txHashParam = z
  .string()
  .max(MAX_TX_HASH_LENGTH, `must be at most ${MAX_TX_HASH_LENGTH} characters`)
  .regex(
    /^(0[xX][0-9a-fA-F]+|[1-9A-HJ-NP-Za-km-z]+)$/,
    'must be a 0x hex or base58 transaction hash',
  )
  .transform(normalizeAddress);
