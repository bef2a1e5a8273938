/**
 * The quote endpoints (docs/api.md "ECDSA quote", "Ed25519 quote"): `GET /getEcdsaSig_native`
 * for EVM origins and `GET /getEd25519Sig_native` for Solana, Aptos and Sui origins. Each route
 * is added directly to the app (no nested router on the hot path); bad queries throw HttpProblem
 * 400 and every error goes to the app's problem handler.
 */
import { parseQuery, sendJsonText } from '@ctss/server-kit';
import type { Express, RequestHandler } from 'express';
import type { z } from 'zod';
import { ECDSA_QUOTE_PATH, ED25519_QUOTE_PATH } from './paths.js';
import { EcdsaQuoteQuery, Ed25519QuoteQuery } from './schemas.js';
import type { QuoteService, SignedQuote } from './service.js';

/**
 * A quote handler: parses the query with `schema` (400 INVALID_QUERY), issues the quote with
 * `issue` and sends its JSON body.
 */
function quoteHandler<S extends z.ZodType>(
  schema: S,
  issue: (query: Readonly<z.output<S>>) => Promise<SignedQuote<unknown>>,
): RequestHandler {
  return async (req, res) => {
    const signed = await issue(parseQuery(schema, req.query));
    // A quote is priced and signed for this moment (deadline now + 100 s): no shared or browser
    // cache may keep and replay it (docs/api.md "ECDSA quote").
    res.setHeader('Cache-Control', 'no-store');
    sendJsonText(res, 200, signed.json);
  };
}

/** What the quote routes use: the quote service. */
export interface QuoteRouteDeps {
  readonly quotes: Pick<QuoteService, 'ecdsa' | 'ed25519'>;
}

/**
 * Adds `GET /getEcdsaSig_native` (an ECDSA-signed quote) and `GET /getEd25519Sig_native` (an
 * Ed25519/BCS quote) to `app` (errors: see QuoteService).
 */
export function addQuoteRoutes(app: Express, deps: QuoteRouteDeps): void {
  const { quotes } = deps;
  app.get(
    ECDSA_QUOTE_PATH,
    quoteHandler(EcdsaQuoteQuery, (query) => quotes.ecdsa(query)),
  );
  app.get(
    ED25519_QUOTE_PATH,
    quoteHandler(Ed25519QuoteQuery, (query) => quotes.ed25519(query)),
  );
}
