/**
 * The OpenAPI 3.1 document of the Gas Quote API, assembled from each feature's `openapi.ts`; every
 * path is generated from the same zod schemas that validate requests and type responses
 * (@asteasolutions/zod-to-openapi OpenApiGeneratorV31).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { API_KEY_SCHEME, API_KEY_SECURITY_SCHEME, OPTIONAL_API_KEY } from '@ctss/server-kit';
import { registerFeedPaths } from './feed/openapi.js';
import { registerHealthPaths } from './health.js';
import { registerPricesPaths } from './prices/openapi.js';
import { registerQuotePaths } from './quotes/openapi.js';
import { registerRoutesPaths } from './routes/openapi.js';

/** Builds the OpenAPI 3.1 document of the Gas Quote API (served as `/openapi.json` and `/docs/`). */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registerQuotePaths(registry);
  registerRoutesPaths(registry);
  registerPricesPaths(registry);
  registerHealthPaths(registry);
  registerFeedPaths(registry);
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, API_KEY_SECURITY_SCHEME);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Gas Quote API',
      version: '1.0.0',
      description:
        'Relayer fee quotes with signatures, token prices and a live fee feed. Errors are RFC 9457 problem details with a stable `code`. Unknown query parameters are a 400.',
    },
    servers: [{ url: '/', description: 'the host serving this document' }],
    security: OPTIONAL_API_KEY,
  });
}
