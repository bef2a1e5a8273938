/** OpenAPI paths of the quote endpoints (docs/api.md "ECDSA quote", "Ed25519 quote"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { jsonResponse, problemResponses } from '../openapi-responses.js';
import { ECDSA_QUOTE_PATH, ED25519_QUOTE_PATH } from './paths.js';
import { EcdsaQuote, EcdsaQuoteQuery, Ed25519Quote, Ed25519QuoteQuery } from './schemas.js';

/** Registers `GET /getEcdsaSig_native` and `GET /getEd25519Sig_native` in `registry`. */
export function registerQuotePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: ECDSA_QUOTE_PATH,
    operationId: 'getEcdsaQuote',
    summary: 'ECDSA-signed relayer fee quote for an EVM origin',
    description:
      'Signature over keccak256(abi.encodePacked(uint32 localDomain, uint32 destinationDomain, uint256 fee, uint256 deadline, bool isNative, uint8 cctpVersion)) ("spec" packing; "compact" uses uint128 fee, uint64 deadline, per origin chain). Deadline = now + 100 s.',
    request: { query: EcdsaQuoteQuery },
    responses: {
      200: jsonResponse('Signed quote', EcdsaQuote),
      ...problemResponses,
    },
  });
  registry.registerPath({
    method: 'get',
    path: ED25519_QUOTE_PATH,
    operationId: 'getEd25519Quote',
    summary: 'Ed25519-signed relayer fee quote for a Solana, Aptos or Sui origin',
    description:
      'Signature over the BCS message [u8 version when given] u32 localDomain, u32 destinationDomain, u64 fee, u64 deadline, bool isNative (little-endian).',
    request: { query: Ed25519QuoteQuery },
    responses: {
      200: jsonResponse('Signed quote', Ed25519Quote),
      ...problemResponses,
    },
  });
}
