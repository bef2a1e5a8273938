/**
 * `GET /transactionsmainnet` (full records) and `GET /transactions` (testnet subset): newest
 * first, keyset cursor pagination (docs/api.md "Transaction feeds", "Pagination"); and the
 * single-record lookups `GET /transactionsmainnet/{source_tx_hash}` and
 * `GET /transactions/{source_tx_hash}` (docs/api.md "Transaction by hash (either leg)"). Every page
 * carries a strong `ETag` and a `Cache-Control` (docs/api.md "Compression and HTTP caching"); a
 * kept closed window's page goes to a client accepting `br` or `gzip` as its kept compressed copy
 * (closed-windows.ts).
 */
import { negotiatedCoding, parseQuery, sendCacheableJson } from '@ctss/server-kit';
import type { Express, Request, Response } from 'express';
import type { TransferNetwork } from '@ctss/domain-types';
import { FeedQuery, RecordParams, RecordQuery } from './schemas.js';
import type { PageAnswer, TransactionsService } from './service.js';

/** What the transaction routes use: the feeds. */
export interface TransactionRouteDeps {
  readonly transactions: TransactionsService;
}

/**
 * Adds both feeds and both lookups to `app` as plain routes. Not a nested router mounted at the
 * root: every request of another path would walk its routes and leave it through a `setImmediate`
 * (the router package's exit when no layer matches), and a feed request would pass two routers.
 */
export function addTransactionRoutes(app: Express, deps: TransactionRouteDeps): void {
  const { transactions } = deps;
  const send = (req: Request, res: Response, page: PageAnswer): void => {
    if (page.ageSeconds !== undefined) res.setHeader('Age', page.ageSeconds);
    sendCacheableJson(req, res, page.body, page.cacheControl, page.kept);
  };
  const feed = (network: TransferNetwork) =>
    async function handler(req: Request, res: Response): Promise<void> {
      const query = parseQuery(FeedQuery, req.query);
      send(req, res, await transactions.feed(network, query, negotiatedCoding(req)));
    };
  const lookup = (network: TransferNetwork) =>
    async function handler(req: Request, res: Response): Promise<void> {
      const { source_tx_hash: hash } = parseQuery(RecordParams, req.params);
      parseQuery(RecordQuery, req.query);
      send(req, res, await transactions.lookup(network, hash));
    };
  app.get('/transactionsmainnet', feed('mainnet'));
  app.get('/transactions', feed('testnet'));
  // Express 5 passes a rejected promise of a handler to the error handler itself.
  app.get('/transactionsmainnet/:source_tx_hash', lookup('mainnet'));
  app.get('/transactions/:source_tx_hash', lookup('testnet'));
}
