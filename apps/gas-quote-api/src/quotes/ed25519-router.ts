/** `GET /getEd25519Sig_native` (docs/api.md "Ed25519 quote"): Ed25519/BCS quote for Solana, Aptos, Sui origins. */
import { Ed25519QuoteQuery } from '@ctss/domain-types';
import { sendJsonText } from '@ctss/server-kit';
import type { RequestHandler } from 'express';
import type { QuoteService } from './service.js';
import { cachedQueryParser } from '../query-cache.js';

/** Path of the Ed25519 quote endpoint. */
export const ED25519_QUOTE_PATH = '/getEd25519Sig_native';

/**
 * Handler of the Ed25519 quote endpoint, mounted directly on the app (no nested router on the
 * hot path). Bad queries throw HttpProblem 400; errors go to the app's problem handler.
 */
export function ed25519QuoteHandler(quotes: QuoteService): RequestHandler {
  const parse = cachedQueryParser(Ed25519QuoteQuery);
  return async (req, res) => {
    const query = parse(req);
    const signed = await quotes.ed25519(query);
    // A quote is priced and signed for this moment (deadline now + 100 s): no shared or browser
    // cache may keep and replay it (docs/api.md "ECDSA quote").
    res.setHeader('Cache-Control', 'no-store');
    sendJsonText(res, 200, signed.json);
  };
}
