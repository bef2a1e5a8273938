/**
 * The API-key tier in both OpenAPI documents (docs/api.md "Authentication", "Rate limits"): a
 * request may carry `X-API-Key`; a known key moves it to the higher rate-limit tier
 * (rate-limit.ts), an unknown one is ignored. No endpoint requires it, so the documents'
 * `security` lists "no credentials" and the key as alternatives (OpenAPI 3.1 section 4.8.30: an
 * empty Security Requirement Object makes security optional).
 */

/** Name of the security scheme in `components.securitySchemes`. */
export const API_KEY_SCHEME = 'apiKey';

/** The `X-API-Key` header scheme (OpenAPI 3.1 Security Scheme Object, type `apiKey`). */
export const API_KEY_SECURITY_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'X-API-Key',
  description:
    'Optional. A key of API_KEYS counts the request against the key (API_KEY_RATE_LIMIT_PER_MINUTE per minute) instead of the client IP; an unknown key is ignored.',
} as const;

/** The document-wide `security`: anonymous, or with the API key (either is accepted). */
export const OPTIONAL_API_KEY: Array<Record<string, string[]>> = [{}, { [API_KEY_SCHEME]: [] }];
