/** OpenAPI path of route discovery (docs/api.md "Routes"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  invalidQuery,
  jsonResponse,
  problemResponse,
  problemResponses,
  rateLimited,
} from '../openapi-responses.js';
import { ROUTES_PATH } from './router.js';
import { RoutesQuery, RoutesResponse } from './schemas.js';

/** Registers `GET /routes` in `registry`. */
export function registerRoutesPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: ROUTES_PATH,
    operationId: 'listRoutes',
    summary: 'Served routes with CCTP versions, signature scheme, limits and current fees',
    description:
      "Every route the quote endpoints accept, optionally filtered by localDomain and/or destinationDomain. A route whose prices are missing or stale has fee null and the reason in feeUnavailable; for a single-route query (both filters) that is a 500 MISSING_PRICE_DATA instead. Each route also carries contractFeeBps, the origin transfer contract's own percentage fee (basis points of the amount, kept on top of the relayer fee), with its source (contract: read on-chain by the feeder; snapshot: the bundled default) and age; null when unknown. Also the signer identities (ECDSA address, Ed25519 public key).",
    request: { query: RoutesQuery },
    responses: {
      200: jsonResponse('Routes and signers', RoutesResponse),
      ...invalidQuery,
      404: problemResponse(
        'UNSUPPORTED_ROUTE: a domain that is not served, localDomain equal to destinationDomain, or no CCTP route between them',
      ),
      ...rateLimited,
      500: problemResponses[500],
    },
  });
}
