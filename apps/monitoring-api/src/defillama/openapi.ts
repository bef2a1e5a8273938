/**
 * OpenAPI description of the DefiLlama endpoints, from the schemas that validate their queries
 * and type their answers (schemas.ts).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { registerGet } from '../openapi-responses.js';
import { BridgeVolumeResponse, FeesResponse, WindowQuery } from './schemas.js';

/** Registers `/defillama/fees` and `/defillama/bridge/volumes`. */
export function registerDefiLlamaPaths(registry: OpenAPIRegistry): void {
  registerGet(
    registry,
    '/defillama/fees',
    'getDefiLlamaFees',
    'Mainnet volume, fees (deposit - receive), revenue and protocol revenue (relayer fee) in USD over [from_timestamp, to_timestamp)',
    FeesResponse,
    { query: WindowQuery },
  );
  registerGet(
    registry,
    '/defillama/bridge/volumes',
    'getDefiLlamaBridgeVolume',
    'Mainnet bridged volume (sum of deposits) in USD over [from_timestamp, to_timestamp)',
    BridgeVolumeResponse,
    { query: WindowQuery },
  );
}
