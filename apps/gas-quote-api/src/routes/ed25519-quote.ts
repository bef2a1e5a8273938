/** `GET /getEd25519Sig_native` (SPEC.md "Endpoints"): Ed25519/BCS quote for Solana, Aptos, Sui origins. */
import { Ed25519QuoteQuery } from '@ctss/domain-types';
import { parseQuery, sendJson } from '@ctss/server-kit';
import { Router } from 'express';
import type { QuoteService } from '../signing/quote-service.js';

/** Router with the Ed25519 quote endpoint. Errors go to the app's problem handler. */
export function ed25519QuoteRouter(quotes: QuoteService): Router {
  const router = Router();
  router.get('/getEd25519Sig_native', async (req, res) => {
    const query = parseQuery(Ed25519QuoteQuery, req.query);
    sendJson(res, 200, await quotes.ed25519(query));
  });
  return router;
}
