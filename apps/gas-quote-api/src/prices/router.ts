/**
 * `GET /tokenPrices` (docs/api.md "Token prices"): domain id to native token USD price, latest
 * fresh values; and the mapping of missing or stale price data to its problem response.
 */
import { HttpProblem, sendJsonText } from '@ctss/server-kit';
import type { ErrorRequestHandler, Express } from 'express';
import { MissingPriceDataError } from './entries.js';
import type { PricesService } from './service.js';

/** Path of the token prices endpoint. */
export const TOKEN_PRICES_PATH = '/tokenPrices';

/** What the token prices route uses: the prices service. */
export interface PriceRouteDeps {
  readonly prices: PricesService;
}

/**
 * Adds `GET /tokenPrices` to `app` (directly, no nested router): the body of
 * {@link PricesService.tokenPricesJson}; no fresh price at all is a MissingPriceDataError (500
 * MISSING_PRICE_DATA through {@link missingPriceDataProblem}). Any query parameter is 400
 * INVALID_QUERY.
 */
export function addPriceRoutes(app: Express, deps: PriceRouteDeps): void {
  const { prices } = deps;
  app.get(TOKEN_PRICES_PATH, async (req, res) => {
    if (Object.keys(req.query).length > 0)
      throw new HttpProblem(400, 'INVALID_QUERY', '/tokenPrices takes no query parameters');
    const pending = prices.tokenPricesJson();
    sendJsonText(res, 200, typeof pending === 'string' ? pending : await pending);
  });
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
