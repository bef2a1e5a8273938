/**
 * `GET /transactionsmainnet` (full records) and `GET /transactions` (testnet subset): newest
 * first, keyset cursor pagination (docs/api.md "Transaction feeds", "Pagination").
 */
import { HttpProblem, parseQuery, sendJsonText } from '@ctss/server-kit';
import type { Express, Request, Response } from 'express';
import { asyncRoute } from '../async-route.js';
import type { AppDeps } from '../deps.js';
import { addressParam } from '../params.js';
import { parseCursor } from './cursor.js';
import { FeedQuery } from './query.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from './record.js';
import { listTransactions, type FeedFilter, type Network } from './repository.js';

/**
 * Turns `addr_or_tx_hash` into the value compared with the address and hash columns: a `.eth` /
 * `.sol` name is resolved first (400 INVALID_NAME when it does not resolve).
 *
 * @throws HttpProblem 400 INVALID_QUERY when it is neither a name nor an address or hash.
 */
async function resolveMatch(deps: AppDeps, value: string): Promise<string> {
  const input = deps.names.isName(value) ? (await deps.names.resolve(value)).address : value;
  const parsed = addressParam.safeParse(input);
  if (!parsed.success) {
    throw new HttpProblem(
      400,
      'INVALID_QUERY',
      'addr_or_tx_hash: must be an address, a transaction hash, or a .eth/.sol name',
    );
  }
  return parsed.data;
}

/** Builds the feed filter from a validated query. */
async function toFilter(deps: AppDeps, query: FeedQuery): Promise<FeedFilter> {
  return {
    ...(query.senders && query.senders.length > 0 ? { senders: query.senders } : {}),
    ...(query.addr_or_tx_hash !== undefined
      ? { match: await resolveMatch(deps, query.addr_or_tx_hash) }
      : {}),
    ...(query.source_domain !== undefined ? { sourceDomain: query.source_domain } : {}),
    ...(query.destination_domain !== undefined
      ? { destinationDomain: query.destination_domain }
      : {}),
    ...(query.start_time !== undefined ? { startTime: query.start_time } : {}),
    ...(query.end_time !== undefined ? { endTime: query.end_time } : {}),
    ...(query.cursor !== undefined && query.cursor !== ''
      ? { cursor: parseCursor(query.cursor) }
      : {}),
  };
}

/**
 * Adds both feeds to `app` as plain routes. Not a nested router mounted at the root: every request
 * of another path would walk its routes and leave it through a `setImmediate` (the router package's
 * exit when no layer matches), and a feed request would pass two routers.
 */
export function addTransactionRoutes(app: Express, deps: AppDeps): void {
  const feed = (network: Network) => {
    const fields = network === 'mainnet' ? MAINNET_FIELDS : TESTNET_FIELDS;
    return async function handler(req: Request, res: Response): Promise<void> {
      const query = parseQuery(FeedQuery, req.query);
      const filter = await toFilter(deps, query);
      const page = await listTransactions(deps.db.read, network, filter, query.limit, fields);
      // The records are JSON text already (record.ts); the envelope is docs/api.md "Pagination".
      sendJsonText(
        res,
        200,
        `{"transactions":[${page.records}],"next_cursor":${JSON.stringify(page.nextCursor)},"has_more":${page.hasMore}}`,
      );
    };
  };
  app.get('/transactionsmainnet', asyncRoute(feed('mainnet')));
  app.get('/transactions', asyncRoute(feed('testnet')));
}
