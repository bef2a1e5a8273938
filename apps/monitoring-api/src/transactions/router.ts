/**
 * `GET /transactionsmainnet` (full records) and `GET /transactions` (testnet subset): newest
 * first, keyset cursor pagination (docs/api.md "Transaction feeds", "Pagination"); and the
 * single-record lookups `GET /transactionsmainnet/{source_tx_hash}` and
 * `GET /transactions/{source_tx_hash}` (docs/api.md "Transaction by origin hash"). Every page
 * carries a strong `ETag` and a `Cache-Control` (docs/api.md "Compression and HTTP caching").
 */
import { HttpProblem, parseQuery, sendCacheableJson } from '@ctss/server-kit';
import type { Express, Request, Response } from 'express';
import type { AppDeps } from '../deps.js';
import { addressParam } from '../params.js';
import {
  NOT_FOUND_CACHE_CONTROL,
  recordCacheControl,
  windowCacheControl,
} from '../cache-control.js';
import { parseCursor } from './cursor.js';
import { createFirstPageCache, firstPageKey } from './first-page-cache.js';
import { FEED_MAX_LIMIT, FeedQuery, RecordParams, RecordQuery } from './query.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from './record.js';
import { listTransactions, type FeedFilter, type FeedPage, type Network } from './repository.js';

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
    ...(query.recipients && query.recipients.length > 0 ? { recipients: query.recipients } : {}),
    ...(query.addr_or_tx_hash !== undefined
      ? { match: await resolveMatch(deps, query.addr_or_tx_hash) }
      : {}),
    ...(query.source_domain !== undefined ? { sourceDomain: query.source_domain } : {}),
    ...(query.destination_domain !== undefined
      ? { destinationDomain: query.destination_domain }
      : {}),
    ...(query.domain !== undefined ? { domain: query.domain } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.start_time !== undefined ? { startTime: query.start_time } : {}),
    ...(query.end_time !== undefined ? { endTime: query.end_time } : {}),
    ...(query.cursor !== undefined && query.cursor !== ''
      ? { cursor: parseCursor(query.cursor) }
      : {}),
  };
}

/** A page in the envelope of docs/api.md "Pagination" (its records are JSON text already, record.ts). */
const pageJson = (page: FeedPage): string =>
  `{"transactions":[${page.records}],"next_cursor":${JSON.stringify(page.nextCursor)},"has_more":${page.hasMore}}`;

/**
 * Adds both feeds and both lookups to `app` as plain routes. Not a nested router mounted at the
 * root: every request of another path would walk its routes and leave it through a `setImmediate`
 * (the router package's exit when no layer matches), and a feed request would pass two routers.
 */
export function addTransactionRoutes(app: Express, deps: AppDeps): void {
  const fieldsOf = (network: Network) => (network === 'mainnet' ? MAINNET_FIELDS : TESTNET_FIELDS);
  const firstPages = createFirstPageCache({
    ttlSeconds: deps.config.FEED_FIRST_PAGE_CACHE_SECONDS,
    clock: deps.clock,
  });
  const feed = (network: Network) => {
    const fields = fieldsOf(network);
    return async function handler(req: Request, res: Response): Promise<void> {
      const query = parseQuery(FeedQuery, req.query);
      const filter = await toFilter(deps, query);
      const render = async () =>
        pageJson(await listTransactions(deps.db.read, network, filter, query.limit, fields));
      const cacheControl = windowCacheControl(query.end_time, deps.clock());
      if (filter.cursor !== undefined) {
        sendCacheableJson(req, res, await render(), cacheControl);
        return;
      }
      // A first page: served from the in-process copy while it is young enough (D62).
      const page = await firstPages.page(firstPageKey(network, filter, query.limit), render);
      if (page.ageSeconds !== undefined) res.setHeader('Age', page.ageSeconds);
      sendCacheableJson(req, res, page.body, cacheControl, page.etag);
    };
  };
  /** The records of one origin hash, as a page (several transfers may share one transaction). */
  const lookup = (network: Network) => {
    const fields = fieldsOf(network);
    return async function handler(req: Request, res: Response): Promise<void> {
      const { source_tx_hash: hash } = parseQuery(RecordParams, req.params);
      parseQuery(RecordQuery, req.query);
      const filter = { sourceTxHash: hash };
      const page = await listTransactions(deps.db.read, network, filter, FEED_MAX_LIMIT, fields);
      if (page.records === '') {
        throw new HttpProblem(404, 'NOT_FOUND', `no transfer with source_tx_hash ${hash}`, {
          'Cache-Control': NOT_FOUND_CACHE_CONTROL,
        });
      }
      sendCacheableJson(req, res, pageJson(page), recordCacheControl(page.settled));
    };
  };
  app.get('/transactionsmainnet', feed('mainnet'));
  app.get('/transactions', feed('testnet'));
  // Express 5 passes a rejected promise of a handler to the error handler itself.
  app.get('/transactionsmainnet/:source_tx_hash', lookup('mainnet'));
  app.get('/transactions/:source_tx_hash', lookup('testnet'));
}
