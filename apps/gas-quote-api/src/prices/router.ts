/**
 * `GET /tokenPrices` (docs/api.md "Token prices"): domain id to native token USD price, latest
 * fresh values; and the mapping of missing or stale price data to its problem response.
 */
import { HttpProblem, sendJsonText } from '@ctss/server-kit';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MissingPriceDataError } from './entries.js';
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
export function tokenPricesHandler(store: Pick<PriceStore, 'snapshot'>): RequestHandler {
  return async (req, res) => {
    if (Object.keys(req.query).length > 0)
      throw new HttpProblem(400, 'INVALID_QUERY', '/tokenPrices takes no query parameters');
    const pending = store.snapshot();
    const snapshot = pending instanceof PriceSnapshot ? pending : await pending;
    sendJsonText(res, 200, snapshot.tokenPricesJson());
  };
}

/**
 * Maps missing or stale price data to 500 MISSING_PRICE_DATA with `Retry-After: 5` (docs/api.md
 * "Errors"; docs/decisions.md "D16. MISSING_PRICE_DATA is a 500"); other errors pass on.
 */
export const missingPriceDataProblem: ErrorRequestHandler = (err, _req, _res, next) => {
  next(
    err instanceof MissingPriceDataError
      ? new HttpProblem(500, 'MISSING_PRICE_DATA', err.message, { 'Retry-After': '5' })
      : err,
  );
};
