/**
 * The OpenAPI 3.1 document of the Monitoring API, assembled from each feature's `openapi.ts`;
 * every path is generated from the same zod schemas that validate requests and type responses
 * (@asteasolutions/zod-to-openapi), served at `/openapi.json` with a docs page at `/docs`. Query
 * parameters are documented as the strings they arrive as, with the rules the schemas enforce.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from '@ctss/domain-types';
import { API_KEY_SCHEME, API_KEY_SECURITY_SCHEME, OPTIONAL_API_KEY } from '@ctss/server-kit';
import { registerDefiLlamaPaths } from './defillama/openapi.js';
import { registerHealthPaths } from './health.js';
import { registerStatsPaths } from './stats/openapi.js';
import { registerTransactionPaths } from './transactions/openapi.js';
import { registerStreamPath } from './transactions/stream-router.js';
import { registerUsersPaths } from './users/openapi.js';

/** Adds a feature's paths to the registry. */
type OpenApiRegistrar = (registry: OpenAPIRegistry) => void;

/** Every feature's paths, in the document's order. */
const FEATURE_PATHS: readonly OpenApiRegistrar[] = [
  registerTransactionPaths,
  registerStreamPath,
  registerStatsPaths,
  registerDefiLlamaPaths,
  registerHealthPaths,
  registerUsersPaths,
];

/**
 * Generates the whole document (served at `/openapi.json`): the paths of the transactions,
 * statistics, DefiLlama, probe and users features.
 */
export function buildOpenApiDocument(): object {
  const registry = new OpenAPIRegistry();
  registry.register('ProblemDetails', ProblemDetails);
  for (const register of FEATURE_PATHS) register(registry);
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, API_KEY_SECURITY_SCHEME);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'CTSS Monitoring API',
      version: '1.0.0',
      description:
        'Transfer records, statistics, points, leaderboard and wallet binding of the CCTP bridge. All keys snake_case; amounts without `_usd` are exact integers in 6-decimal base units. Errors are RFC 9457 problem details with a stable `code`. Unknown query parameters are a 400.',
    },
    servers: [{ url: '/', description: 'the host serving this document' }],
    security: OPTIONAL_API_KEY,
  });
}
