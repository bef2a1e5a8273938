/**
 * `GET /transactionsmainnet` (full records) and `GET /transactions` (testnet subset): newest
 * first, keyset cursor pagination (docs/api.md "Transaction feeds", "Pagination"); and the
 * single-record lookups `GET /transactionsmainnet/{source_tx_hash}` and
 * `GET /transactions/{source_tx_hash}` (docs/api.md "Transaction by hash (either leg)"). Every page
 * carries a strong `ETag` and a `Cache-Control` (docs/api.md "Compression and HTTP caching").
 */
import { HttpProblem, parseQuery, sendCacheableJson } from '@ctss/server-kit';
import type { KvStore } from '@ctss/server-kit';
import type { Express, Request, Response } from 'express';
import {
  NOT_FOUND_CACHE_CONTROL,
  recordCacheControl,
  windowCacheControl,
} from '../cache-control.js';
import type { Clock } from '../clock.js';
import type { Databases } from '../db/connect.js';
import type { NameResolver } from '../names/resolver.js';
import type { Network } from '../network.js';
import {
  CLOSED_WINDOW_CACHE_CONTROL,
  closedPageKey,
  createClosedWindowStore,
} from './closed-windows.js';
import { createFirstPageCache, firstPageKey } from './first-page-cache.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from './record.js';
import { createFeedRepository, type FeedFilter, type FeedPage } from './repository.js';
import { FEED_MAX_LIMIT, FeedQuery, RecordParams, RecordQuery } from './schemas.js';
import { toFilter } from './service.js';
import { createWatermark, type IndexedChain } from './watermark.js';

/**
 * What the transaction routes use: the read pool, the clock, name resolution and the first-page
 * cache lifetime (seconds, 0 = off).
 */
export interface TransactionRouteDeps {
  readonly db: Pick<Databases, 'read'>;
  /** Seconds a rendered first page is reused; 0 = off (FEED_FIRST_PAGE_CACHE_SECONDS). */
  readonly firstPageCacheSeconds: number;
  readonly clock: Clock;
  readonly names: NameResolver;
  /** Where closed windows' pages are kept (Redis; closed-windows.ts). */
  readonly kv: KvStore;
  /** The indexer's configured chains (FEED_INDEXED_CHAINS; none = no window is closed). */
  readonly indexedChains: readonly IndexedChain[];
  /** Bytes of closed pages kept in process (FEED_CLOSED_PAGE_MEMORY_BYTES). */
  readonly closedPageMemoryBytes: number;
}

/** A page in the envelope of docs/api.md "Pagination" (its records are JSON text already, record.ts). */
const pageJson = (page: FeedPage): string =>
  `{"transactions":[${page.records}],"next_cursor":${JSON.stringify(page.nextCursor)},"has_more":${page.hasMore}}`;

/**
 * Adds both feeds and both lookups to `app` as plain routes. Not a nested router mounted at the
 * root: every request of another path would walk its routes and leave it through a `setImmediate`
 * (the router package's exit when no layer matches), and a feed request would pass two routers.
 */
export function addTransactionRoutes(app: Express, deps: TransactionRouteDeps): void {
  // This app's feed statements, each query shape built on its first request (repository.ts).
  const { listTransactions } = createFeedRepository();
  const fieldsOf = (network: Network) => (network === 'mainnet' ? MAINNET_FIELDS : TESTNET_FIELDS);
  const firstPages = createFirstPageCache({
    ttlSeconds: deps.firstPageCacheSeconds,
    clock: deps.clock,
  });
  const watermark = createWatermark({
    read: deps.db.read,
    chains: deps.indexedChains,
    clock: deps.clock,
  });
  const closedPages = createClosedWindowStore({
    kv: deps.kv,
    maxBytes: deps.closedPageMemoryBytes,
  });
  /**
   * Whether the filter's window is closed (closed-windows.ts): an `end_time` at or below the
   * network's watermark and no `status` filter.
   */
  const isClosed = async (network: Network, filter: FeedFilter): Promise<boolean> => {
    if (filter.endTime === undefined || filter.status !== undefined) return false;
    const mark = await watermark.closedBefore(network);
    return mark !== undefined && filter.endTime <= mark;
  };
  const feed = (network: Network) => {
    const fields = fieldsOf(network);
    return async function handler(req: Request, res: Response): Promise<void> {
      const query = parseQuery(FeedQuery, req.query);
      const filter = await toFilter(deps, query);
      if (await isClosed(network, filter)) {
        const page = await closedPages.page(
          closedPageKey(network, filter, query.limit, fields),
          async () => {
            const read = await listTransactions(deps.db.read, network, filter, query.limit, fields);
            return { body: pageJson(read), settled: read.settled };
          },
        );
        const cacheControl = page.immutable
          ? CLOSED_WINDOW_CACHE_CONTROL
          : windowCacheControl(query.end_time, deps.clock());
        sendCacheableJson(req, res, page.body, cacheControl, page.etag);
        return;
      }
      const render = async () =>
        pageJson(await listTransactions(deps.db.read, network, filter, query.limit, fields));
      const cacheControl = windowCacheControl(query.end_time, deps.clock());
      if (filter.cursor !== undefined) {
        sendCacheableJson(req, res, await render(), cacheControl);
        return;
      }
      // A first page: served from the in-process copy while it is young enough (D63).
      const page = await firstPages.page(firstPageKey(network, filter, query.limit), render);
      if (page.ageSeconds !== undefined) res.setHeader('Age', page.ageSeconds);
      sendCacheableJson(req, res, page.body, cacheControl, page.etag);
    };
  };
  /**
   * The records of one transaction hash, origin or destination leg, as a page (several transfers
   * may share one transaction, e.g. a batch relayer's receives).
   */
  const lookup = (network: Network) => {
    const fields = fieldsOf(network);
    return async function handler(req: Request, res: Response): Promise<void> {
      const { source_tx_hash: hash } = parseQuery(RecordParams, req.params);
      parseQuery(RecordQuery, req.query);
      const filter = { txHash: hash };
      const page = await listTransactions(deps.db.read, network, filter, FEED_MAX_LIMIT, fields);
      if (page.records === '') {
        throw new HttpProblem(
          404,
          'NOT_FOUND',
          `no transfer with source_tx_hash or destination_tx_hash ${hash}`,
          {
            'Cache-Control': NOT_FOUND_CACHE_CONTROL,
          },
        );
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
