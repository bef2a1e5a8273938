/** OpenAPI path of the token prices endpoint (docs/api.md "Token prices"). */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { jsonResponse, problemResponses } from '../openapi-responses.js';
import { TOKEN_PRICES_PATH } from './router.js';
import { TokenPrices } from './schemas.js';

/** Registers `GET /tokenPrices` in `registry`. */
export function registerPricesPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: TOKEN_PRICES_PATH,
    summary: 'Native token USD price per domain (latest fresh cached prices)',
    responses: {
      200: jsonResponse('Domain id to USD price', TokenPrices),
      ...problemResponses,
    },
  });
}
