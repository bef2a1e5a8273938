/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and type
 * responses (@asteasolutions/zod-to-openapi OpenApiGeneratorV31).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import {
  EcdsaQuote,
  EcdsaQuoteQuery,
  Ed25519Quote,
  Ed25519QuoteQuery,
  FeesMessage,
  ProblemDetails,
  RoutesQuery,
  RoutesResponse,
  TokenPrices,
  TokenPricesMessage,
  z,
} from '@ctss/domain-types';

const problemContent = { 'application/problem+json': { schema: ProblemDetails } };
const errors = {
  400: {
    description:
      'Missing or invalid query parameter (INVALID_QUERY) or unsupported route (UNSUPPORTED_ROUTE)',
    content: problemContent,
  },
  429: { description: 'Rate limited (RATE_LIMITED); see Retry-After', content: problemContent },
  500: {
    description: 'Price or gas data missing or stale (MISSING_PRICE_DATA), or internal error',
    content: problemContent,
  },
};

/** Builds the OpenAPI 3.1 document of the Gas Quote API. */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.register('FeesMessage', FeesMessage);
  registry.register('TokenPricesMessage', TokenPricesMessage);
  registry.registerPath({
    method: 'get',
    path: '/getEcdsaSig_native',
    summary: 'ECDSA-signed relayer fee quote for an EVM origin',
    description:
      'Signature over keccak256(abi.encodePacked(uint32 localDomain, uint32 destinationDomain, uint256 fee, uint256 deadline, bool isNative, uint8 cctpVersion)) ("spec" packing; "compact" uses uint128 fee, uint64 deadline, per origin chain). Deadline = now + 100 s.',
    request: { query: EcdsaQuoteQuery },
    responses: {
      200: { description: 'Signed quote', content: { 'application/json': { schema: EcdsaQuote } } },
      ...errors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/getEd25519Sig_native',
    summary: 'Ed25519-signed relayer fee quote for a Solana, Aptos or Sui origin',
    description:
      'Signature over the BCS message [u8 version when given] u32 localDomain, u32 destinationDomain, u64 fee, u64 deadline, bool isNative (little-endian).',
    request: { query: Ed25519QuoteQuery },
    responses: {
      200: {
        description: 'Signed quote',
        content: { 'application/json': { schema: Ed25519Quote } },
      },
      ...errors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/routes',
    summary: 'Served routes with CCTP versions, signature scheme, limits and current fees',
    description:
      'Every route the quote endpoints accept, optionally filtered by localDomain and/or destinationDomain. A route whose prices are missing or stale has fee null and the reason in feeUnavailable; for a single-route query (both filters) that is a 500 MISSING_PRICE_DATA instead. Also the signer identities (ECDSA address, Ed25519 public key).',
    request: { query: RoutesQuery },
    responses: {
      200: {
        description: 'Routes and signers',
        content: { 'application/json': { schema: RoutesResponse } },
      },
      400: {
        description: 'Missing or invalid query parameter (INVALID_QUERY)',
        content: problemContent,
      },
      404: {
        description:
          'A domain that is not served, localDomain equal to destinationDomain, or no CCTP route between them (UNSUPPORTED_ROUTE)',
        content: problemContent,
      },
      429: errors[429],
      500: errors[500],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/tokenPrices',
    summary: 'Native token USD price per domain (latest fresh cached prices)',
    responses: {
      200: {
        description: 'Domain id to USD price',
        content: { 'application/json': { schema: TokenPrices } },
      },
      ...errors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/health',
    summary: 'Liveness; reports whether the bundled snapshot price source is in use',
    responses: {
      200: {
        description: 'Alive',
        content: {
          'application/json': {
            schema: z
              .object({
                status: z.literal('ok'),
                snapshot: z.boolean(),
                priceSource: z.enum(['live', 'snapshot']),
              })
              .loose(),
          },
        },
      },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    summary: 'Readiness: cache reachable and price data fresh',
    responses: {
      200: { description: 'Ready' },
      503: { description: 'Not ready (cache unreachable or no fresh prices)' },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/subscribe',
    summary:
      'WebSocket (GET upgrade): the latest `fees` and `tokenPrices` messages on connect, then every update',
    description:
      'Messages are FeesMessage and TokenPricesMessage (components). The client sends nothing; the server pings.',
    responses: { 101: { description: 'Switching protocols' } },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Gas Quote API',
      version: '1.0.0',
      description: 'Relayer fee quotes with signatures, token prices and a live fee feed.',
    },
  });
}
