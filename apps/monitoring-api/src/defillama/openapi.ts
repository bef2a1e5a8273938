/**
 * OpenAPI description of the DefiLlama endpoints, from the schemas that validate their queries
 * and type their answers (schemas.ts).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { jsonResponse, notModified, problemResponse, rateLimited } from '../openapi-responses.js';
import { BridgeVolumeResponse, FeesResponse, WindowQuery } from './schemas.js';

const errors = {
  ...notModified,
  400: problemResponse(
    'INVALID_QUERY: a bound missing or not whole UNIX seconds, from_timestamp not before to_timestamp, or an unknown parameter',
  ),
  ...rateLimited,
};

/** Registers `/defillama/fees` and `/defillama/bridge/volumes`. */
export function registerDefiLlamaPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/defillama/fees',
    summary:
      'Mainnet volume, fees (deposit - receive), revenue and protocol revenue (relayer fee) in USD over [from_timestamp, to_timestamp)',
    request: { query: WindowQuery },
    responses: {
      200: jsonResponse('OK', FeesResponse),
      ...errors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/defillama/bridge/volumes',
    summary: 'Mainnet bridged volume (sum of deposits) in USD over [from_timestamp, to_timestamp)',
    request: { query: WindowQuery },
    responses: {
      200: jsonResponse('OK', BridgeVolumeResponse),
      ...errors,
    },
  });
}
