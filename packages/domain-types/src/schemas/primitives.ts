/** Shared field schemas: domains, base-unit amounts, timestamps. Source: docs/api.md "Units and
 * amounts". */
import { z } from '../zod.js';

/** Largest uint32, the range of a CCTP domain id. */
export const UINT32_MAX = 4_294_967_295;

/** A CCTP domain id or other route id: any uint32 (docs/decisions.md "D7. Domain ids beyond CCTP
 * domains": never rejected in records). */
export const DomainId = z
  .number()
  .int()
  .min(0)
  .max(UINT32_MAX)
  .openapi({ type: 'integer', format: 'uint32' });

/**
 * An amount in bridge asset base units (6 decimals) or native smallest units, as bigint.
 * Written to JSON as an exact integer literal, also above 2^53 (docs/decisions.md "D8. Large amounts as exact JSON integers").
 */
export const BaseUnits = z.bigint().openapi({ type: 'integer', format: 'int64' });

/** An ISO 8601 UTC timestamp string, e.g. `2026-11-21T10:00:00.000Z`. */
export const IsoTimestamp = z.iso.datetime({ offset: false }).openapi({ format: 'date-time' });

/** A non-negative integer written as a decimal string (quote `fee`, `deadline`). */
export const DecimalString = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .openapi({ pattern: '^(0|[1-9][0-9]*)$' });

/** `0x`-prefixed lower- or upper-case hex. */
export const HexString = z.string().regex(/^0x[0-9a-fA-F]*$/);
