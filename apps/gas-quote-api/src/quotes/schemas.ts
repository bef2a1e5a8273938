/**
 * Zod schemas of the quote endpoints: the queries (validation and OpenAPI parameters) and the
 * signed quote bodies. They live in @ctss/domain-types, shared with the clients of the API.
 */
export { EcdsaQuote, EcdsaQuoteQuery, Ed25519Quote, Ed25519QuoteQuery } from '@ctss/domain-types';
