/** `GET /getEcdsaSig_native` (docs/api.md "ECDSA quote"): ECDSA-signed relayer fee quote for EVM origins. */
import { EcdsaQuoteQuery } from '@ctss/domain-types';
import { sendJsonText } from '@ctss/server-kit';
import type { RequestHandler } from 'express';
import type { QuoteService } from './service.js';
import { cachedQueryParser } from '../query-cache.js';

/** Path of the ECDSA quote endpoint. */
export const ECDSA_QUOTE_PATH = '/getEcdsaSig_native';

/**
 * Handler of the ECDSA quote endpoint, mounted directly on the app (no nested router on the hot
 * path). Bad queries throw HttpProblem 400; errors go to the app's problem handler.
 */
export function ecdsaQuoteHandler(quotes: QuoteService): RequestHandler {
  const parse = cachedQueryParser(EcdsaQuoteQuery);
  return async (req, res) => {
    const query = parse(req);
    const signed = await quotes.ecdsa(query);
    // A quote is priced and signed for this moment (deadline now + 100 s): no shared or browser
    // cache may keep and replay it (docs/api.md "ECDSA quote").
    res.setHeader('Cache-Control', 'no-store');
    sendJsonText(res, 200, signed.json);
  };
}
