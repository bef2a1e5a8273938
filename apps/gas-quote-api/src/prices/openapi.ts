/** OpenAPI path of the token prices endpoint (docs/api.md "Token prices"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { invalidQuery, jsonResponse, problemResponse, rateLimited } from '../openapi-responses.js';
import { TOKEN_PRICES_PATH } from './router.js';
import { TokenPrices } from './schemas.js';

/** Registers `GET /tokenPrices` in `registry`. */
export function registerPricesPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: TOKEN_PRICES_PATH,
    operationId: 'getTokenPrices',
    summary: 'Native token USD price per domain (latest fresh cached prices)',
    responses: {
      200: jsonResponse('Domain id to USD price', TokenPrices),
      ...invalidQuery,
      ...rateLimited,
      500: problemResponse('MISSING_PRICE_DATA (no price is fresh; Retry-After: 5) or INTERNAL'),
    },
  });
}
