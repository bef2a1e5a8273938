/** `GET /getEcdsaSig_native` (SPEC.md "Endpoints"): ECDSA-signed relayer fee quote for EVM origins. */
import { EcdsaQuoteQuery } from '@ctss/domain-types';
import { parseQuery, sendJson } from '@ctss/server-kit';
import { Router } from 'express';
import type { QuoteService } from '../signing/quote-service.js';

/** Router with the ECDSA quote endpoint. Errors go to the app's problem handler. */
export function ecdsaQuoteRouter(quotes: QuoteService): Router {
  const router = Router();
  router.get('/getEcdsaSig_native', async (req, res) => {
    const query = parseQuery(EcdsaQuoteQuery, req.query);
    sendJson(res, 200, await quotes.ecdsa(query));
  });
  return router;
}
