/**
 * Zod schemas of the prices feature: the stored entry formats (`gas:<domain>`, `usd:<SYMBOL>`,
 * `cfee:<domain>` in the KvStore) and the `GET /tokenPrices` body (from @ctss/domain-types, where the response
 * types of both services live).
 */
import { z } from '@ctss/domain-types';

export { TokenPrices } from '@ctss/domain-types';

const IntString = z.string().regex(/^[0-9]+$/);

/** Stored gas price of one chain: see GasPrice (src/pricing/fee.ts) for units; observedAt in ms since epoch. */
export const GasEntry = z.object({
  price: IntString,
  decimals: z.number().int().min(0).max(36),
  observedAt: z.number().int().nonnegative(),
  source: z.string(),
});
/** A stored gas entry (see the schema above). */
export type GasEntry = z.infer<typeof GasEntry>;

/** Stored USD price of one native token: fixed point, 10^8 scale; observedAt in ms since epoch. */
export const UsdEntry = z.object({
  price: IntString,
  observedAt: z.number().int().nonnegative(),
  source: z.string(),
});
/** A stored USD entry (see the schema above). */
export type UsdEntry = z.infer<typeof UsdEntry>;

/**
 * Stored percentage fee of one origin's transfer contract (`CashmereCCTP` `state().feeBP`), basis
 * points of the transferred amount; observedAt in ms since epoch; source `contract` or `snapshot`.
 */
export const ContractFeeEntry = z.object({
  bps: z.number().int().min(0).max(10_000),
  observedAt: z.number().int().nonnegative(),
  source: z.string(),
});
/** A stored contract fee entry (see the schema above). */
export type ContractFeeEntry = z.infer<typeof ContractFeeEntry>;
