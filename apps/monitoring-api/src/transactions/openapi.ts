/**
 * OpenAPI paths of the transaction feeds and the single-record lookups (docs/api.md "Transaction
 * feeds", "Transaction by origin hash"), from the schemas that validate their requests
 * (schemas.ts) and the shared record schemas.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { TestnetTransactionPage, TransactionPage } from '@ctss/domain-types';
import type { ZodType } from 'zod';
import {
  jsonResponse,
  notModified,
  problemResponse,
  rateLimited,
  registerGet,
} from '../openapi-responses.js';
import { FeedQuery, RecordParams } from './schemas.js';

/** Registers a single-record lookup (`/<feed>/{source_tx_hash}`). */
function registerLookup(registry: OpenAPIRegistry, feed: string, page: ZodType): void {
  registry.registerPath({
    method: 'get',
    path: `${feed}/{source_tx_hash}`,
    summary: `The records of one origin transaction hash (${feed} record shape), as one page`,
    request: { params: RecordParams },
    responses: {
      200: jsonResponse('OK', page),
      ...notModified,
      400: problemResponse('Malformed hash or a query parameter (INVALID_QUERY)'),
      404: problemResponse('No record with this origin hash (NOT_FOUND)'),
      ...rateLimited,
    },
  });
}

/** Registers both feeds and both lookups in `registry`. */
export function registerTransactionPaths(registry: OpenAPIRegistry): void {
  registerGet(
    registry,
    '/transactionsmainnet',
    'Mainnet transaction feed, newest first, cursor pagination',
    TransactionPage,
    FeedQuery,
  );
  registerLookup(registry, '/transactionsmainnet', TransactionPage);
  registerGet(
    registry,
    '/transactions',
    'Testnet/staging transaction feed (subset record)',
    TestnetTransactionPage,
    FeedQuery,
  );
  registerLookup(registry, '/transactions', TestnetTransactionPage);
}
