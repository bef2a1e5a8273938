/**
 * OpenAPI paths of the transaction feeds and the single-record lookups (docs/api.md "Transaction
 * feeds", "Transaction by hash (either leg)"), from the schemas that validate their requests
 * (schemas.ts) and the shared record schemas.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { TestnetTransactionPage, TransactionPage } from '@ctss/domain-types';
import type { ZodType } from 'zod';
import {
  dependencyUnavailable,
  jsonResponse,
  notModified,
  problemResponse,
  rateLimited,
  registerGet,
} from '../openapi-responses.js';
import { FeedQuery, RecordParams } from './schemas.js';

/** The feeds' own problems beyond registerGet's (names, cursors, name-resolution RPCs). */
const feedProblems = {
  400: problemResponse(
    'INVALID_QUERY (a parameter malformed, out of range, repeated or unknown), INVALID_CURSOR (cursor not `<unix_ts>_<id>` or out of range) or INVALID_NAME (a .eth / .sol name that is malformed, does not resolve, or whose chain has no RPC configured)',
  ),
  503: problemResponse(
    'DEPENDENCY_UNAVAILABLE (PostgreSQL or Redis unreachable or too slow; Retry-After) or SERVICE_UNAVAILABLE (the name-resolution RPC cannot be reached)',
  ),
};

/** Registers a single-record lookup (`/<feed>/{source_tx_hash}`). */
function registerLookup(
  registry: OpenAPIRegistry,
  feed: string,
  operationId: string,
  page: ZodType,
): void {
  registry.registerPath({
    method: 'get',
    path: `${feed}/{source_tx_hash}`,
    operationId,
    summary: `The records of one origin transaction hash (${feed} record shape), as one page`,
    request: { params: RecordParams },
    responses: {
      200: jsonResponse('OK', page),
      ...notModified,
      400: problemResponse(
        'INVALID_QUERY (a hash that is not 0x hex or base58, too long, or any query parameter) or BAD_REQUEST (a path that is not valid percent-encoding)',
      ),
      404: problemResponse('NOT_FOUND: no record with this origin hash on this network'),
      ...rateLimited,
      ...dependencyUnavailable,
    },
  });
}

/** Registers both feeds and both lookups in `registry`. */
export function registerTransactionPaths(registry: OpenAPIRegistry): void {
  registerGet(
    registry,
    '/transactionsmainnet',
    'listMainnetTransactions',
    'Mainnet transaction feed, newest first, cursor pagination',
    TransactionPage,
    { query: FeedQuery, responses: feedProblems },
  );
  registerLookup(registry, '/transactionsmainnet', 'getMainnetTransaction', TransactionPage);
  registerGet(
    registry,
    '/transactions',
    'listTransactions',
    'Testnet/staging transaction feed (subset record)',
    TestnetTransactionPage,
    { query: FeedQuery, responses: feedProblems },
  );
  registerLookup(registry, '/transactions', 'getTransaction', TestnetTransactionPage);
}
