/**
 * The paths of the quote endpoints (docs/api.md "ECDSA quote", "Ed25519 quote"): the router
 * mounts them, the OpenAPI document and the route listing (`quotePath`) name them.
 */

/** Path of the ECDSA quote endpoint. */
export const ECDSA_QUOTE_PATH = '/getEcdsaSig_native';

/** Path of the Ed25519 quote endpoint. */
export const ED25519_QUOTE_PATH = '/getEd25519Sig_native';
