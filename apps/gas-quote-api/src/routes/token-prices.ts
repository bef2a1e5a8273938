/** `GET /tokenPrices` (SPEC.md "Endpoints"): domain id to native token USD price, latest fresh values. */
import type { ChainRegistry } from '@ctss/domain-types';
import { HttpProblem, sendJson } from '@ctss/server-kit';
import { Router } from 'express';
import { buildTokenPrices } from '../pricing/fee-matrix.js';
import type { PriceStore } from '../pricing/price-store.js';

/** Router with the token prices endpoint; 500 MISSING_PRICE_DATA when no price is fresh. */
export function tokenPricesRouter(registry: ChainRegistry, store: PriceStore): Router {
  const router = Router();
  router.get('/tokenPrices', async (req, res) => {
    if (Object.keys(req.query).length > 0) throw new HttpProblem(400, 'INVALID_QUERY', '/tokenPrices takes no query parameters');
    sendJson(res, 200, await buildTokenPrices(registry, store));
  });
  return router;
}
