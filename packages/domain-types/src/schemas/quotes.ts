/** Gas Quote API request and response schemas. Source: docs/api.md "ECDSA quote",
 * "Ed25519 quote", "Token prices" and "WebSocket subscribe". */
import { z } from '../zod.js';
import { DecimalString, DomainId, HexString } from './primitives.js';

/** A query-string boolean: exactly `true` or `false` (docs/api.md "Query parameters"). */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .openapi({ type: 'string', enum: ['true', 'false'] });

/** A query-string uint32 domain id in canonical decimal form (no sign, no leading zeros). */
export const QueryDomain = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,9})$/, 'must be a decimal uint32')
  .transform(Number)
  .pipe(DomainId)
  .openapi({ type: 'string', pattern: '^(0|[1-9][0-9]{0,9})$' });

/** The route a quote is asked for: origin and destination domains, the first query fields. */
const quoteRoute = { localDomain: QueryDomain, destinationDomain: QueryDomain };

/** Query of `GET /getEcdsaSig_native`. */
export const EcdsaQuoteQuery = z
  .object({
    ...quoteRoute,
    isV2: QueryBoolean,
    isNative: QueryBoolean,
  })
  .strict();
export type EcdsaQuoteQuery = z.infer<typeof EcdsaQuoteQuery>;

/** Query of `GET /getEd25519Sig_native`; `version` is 1 or 2 when given. */
export const Ed25519QuoteQuery = z
  .object({
    ...quoteRoute,
    isNative: QueryBoolean,
    version: z
      .enum(['1', '2'])
      .transform((v) => (v === '2' ? 2 : 1))
      .optional()
      .openapi({ type: 'string', enum: ['1', '2'] }),
  })
  .strict();
export type Ed25519QuoteQuery = z.infer<typeof Ed25519QuoteQuery>;

/**
 * ECDSA quote for EVM origins. `fee`: base units when isNative is false, origin native smallest
 * units (wei) when true; `deadline`: UNIX seconds; `signature`: 65-byte 0x hex r||s||v, v 27/28.
 */
export const EcdsaQuote = z
  .object({
    fee: DecimalString,
    deadline: DecimalString,
    signature: HexString.length(132),
    isNative: z.boolean(),
    cctpVersion: z.union([z.literal(1), z.literal(2)]),
  })
  .openapi('EcdsaQuote');
export type EcdsaQuote = z.infer<typeof EcdsaQuote>;

/**
 * Ed25519 quote for Solana, Aptos and Sui origins. `message` is the 0x hex BCS message that was
 * signed; `signature` 64 bytes and `publicKey` 32 bytes, both 0x hex. `version` echoes the request.
 */
export const Ed25519Quote = z
  .object({
    signature: HexString.length(130),
    message: HexString,
    publicKey: HexString.length(66),
    destinationDomain: DecimalString,
    fee: DecimalString,
    deadline: DecimalString,
    isNative: z.boolean(),
    version: z.number().int().optional(),
  })
  .openapi('Ed25519Quote');
export type Ed25519Quote = z.infer<typeof Ed25519Quote>;

/** `GET /tokenPrices`: domain id (decimal string key) to native token price in USD (float). */
export const TokenPrices = z
  .record(z.string().regex(/^[0-9]+$/), z.number())
  .openapi('TokenPrices');
export type TokenPrices = z.infer<typeof TokenPrices>;

/** A native amount with its USD value: `native` in smallest native units (decimal string), `usd` a float. */
export const NativeAndUsd = z.object({ native: DecimalString, usd: z.number() });

/**
 * WebSocket `fees` message. Keyed by source domain id: `fee[dest]` is the relayer fee for that
 * route (native = origin native smallest units, usd = base fee / 10^6); `gas` is the cost of one
 * redeem on the source chain at its current gas price.
 */
export const FeesMessage = z
  .object({
    type: z.literal('fees'),
    data: z.record(
      z.string().regex(/^[0-9]+$/),
      z.object({ fee: z.record(z.string().regex(/^[0-9]+$/), NativeAndUsd), gas: NativeAndUsd }),
    ),
  })
  .openapi('FeesMessage');
export type FeesMessage = z.infer<typeof FeesMessage>;

/** WebSocket `tokenPrices` message: domain id to USD price as a decimal string. */
export const TokenPricesMessage = z
  .object({
    type: z.literal('tokenPrices'),
    data: z.record(z.string().regex(/^[0-9]+$/), z.string().regex(/^[0-9]+(\.[0-9]+)?$/)),
  })
  .openapi('TokenPricesMessage');
export type TokenPricesMessage = z.infer<typeof TokenPricesMessage>;

/** Any message the `/subscribe` WebSocket sends. */
export const SubscribeMessage = z.discriminatedUnion('type', [FeesMessage, TokenPricesMessage]);
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;
