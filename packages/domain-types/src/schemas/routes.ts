/** `GET /routes` query and response schemas. Source: docs/api.md "Routes" and docs/decisions.md
 * "D56. Route discovery and no-store quotes". */
import { z } from '../zod.js';
import { DecimalString, DomainId, HexString } from './primitives.js';
import { QueryDomain } from './quotes.js';

/** Query of `GET /routes`: both filters optional; both given select a single route. */
export const RoutesQuery = z
  .object({
    localDomain: QueryDomain.optional(),
    destinationDomain: QueryDomain.optional(),
  })
  .strict();
export type RoutesQuery = z.infer<typeof RoutesQuery>;

/** A USD price as a plain decimal string (8 decimals at most, e.g. `"3012.45"`). */
const UsdDecimal = z
  .string()
  .regex(/^(0|[1-9][0-9]*)(\.[0-9]{1,8})?$/)
  .openapi({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,8})?$' });

/**
 * The parts a route's fee is computed from (docs/api.md "Fee computation"). Gas price in units of
 * 10^-`destGasPriceDecimals` destination native tokens (wei for EVM); redeem gas in gas units;
 * USD prices of the native tokens; adjustment in basis points (10000 = 1.0); `priceAgeSeconds` the
 * age of the oldest entry used, whole seconds.
 */
export const RouteFeeParts = z
  .object({
    destGasPrice: DecimalString,
    destGasPriceDecimals: z.number().int().min(0),
    redeemGas: DecimalString,
    destNativePriceUsd: UsdDecimal,
    originNativePriceUsd: UsdDecimal,
    adjustmentBps: z.number().int().min(0),
    minFeeApplied: z.boolean(),
    priceAgeSeconds: z.number().int().min(0),
  })
  .openapi('RouteFeeParts');
export type RouteFeeParts = z.infer<typeof RouteFeeParts>;

/**
 * The current fee of a route: `base` in bridge asset base units (6 decimals, the quote fee with
 * isNative=false), `native` in the origin native token's smallest unit (the quote fee with
 * isNative=true), both exact decimal strings.
 */
export const RouteFee = z
  .object({ base: DecimalString, native: DecimalString, parts: RouteFeeParts })
  .openapi('RouteFee');
export type RouteFee = z.infer<typeof RouteFee>;

/**
 * One served route. `fee` is null when a price it needs is missing or stale, with the reason in
 * `feeUnavailable`; `ecdsaPacking` is null for non-EVM origins (Ed25519 signatures).
 * `contractFeeBps` is the origin transfer contract's own percentage fee (`state().feeBP` of
 * CashmereCCTP, basis points of the transferred amount, kept on top of the relayer fee), read by
 * the feeder (`contractFeeSource` `contract`) or the bundled snapshot's (`snapshot`), whole
 * seconds old; all three null when no fresh value is known (docs/api.md "Routes").
 */
export const RouteInfo = z
  .object({
    localDomain: DomainId,
    destinationDomain: DomainId,
    cctpVersions: z.array(z.union([z.literal(1), z.literal(2)])).min(1),
    signatureScheme: z.enum(['ecdsa', 'ed25519']),
    quotePath: z.enum(['/getEcdsaSig_native', '/getEd25519Sig_native']),
    ecdsaPacking: z.enum(['spec', 'compact']).nullable(),
    minFee: DecimalString,
    quoteValiditySeconds: z.number().int().positive(),
    fee: RouteFee.nullable(),
    feeUnavailable: z.string().optional(),
    contractFeeBps: z.number().int().min(0).max(10_000).nullable(),
    contractFeeSource: z.enum(['contract', 'snapshot']).nullable(),
    contractFeeAgeSeconds: z.number().int().min(0).nullable(),
  })
  .openapi('RouteInfo');
export type RouteInfo = z.infer<typeof RouteInfo>;

/** `GET /routes`: the signer identities (ECDSA address, 32-byte Ed25519 public key) and the routes. */
export const RoutesResponse = z
  .object({
    signers: z.object({
      ecdsaAddress: HexString.length(42),
      ed25519PublicKey: HexString.length(66),
    }),
    routes: z.array(RouteInfo),
  })
  .openapi('RoutesResponse');
export type RoutesResponse = z.infer<typeof RoutesResponse>;
