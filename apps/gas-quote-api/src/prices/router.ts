/** `GET /tokenPrices` (docs/api.md "Token prices"): domain id to native token USD price, latest fresh values. */
import { HttpProblem, sendJsonText } from '@ctss/server-kit';
import type { RequestHandler } from 'express';
import { PriceSnapshot } from './snapshot.js';
import type { PriceStore } from './store.js';

/** Path of the token prices endpoint. */
export const TOKEN_PRICES_PATH = '/tokenPrices';

/**
 * Handler of the token prices endpoint (mounted directly on the app), served from the store's
 * in-process snapshot (its body is built once per snapshot and kept while every included price
 * is fresh); stale tokens are left out, and no fresh price at all is a MissingPriceDataError
 * (500 MISSING_PRICE_DATA). Any query parameter is 400 INVALID_QUERY.
 */
export function tokenPricesHandler(store: PriceStore): RequestHandler {
  return async (req, res) => {
    if (Object.keys(req.query).length > 0)
      throw new HttpProblem(400, 'INVALID_QUERY', '/tokenPrices takes no query parameters');
    const pending = store.snapshot();
    const snapshot = pending instanceof PriceSnapshot ? pending : await pending;
    sendJsonText(res, 200, snapshot.tokenPricesJson());
  };
}
