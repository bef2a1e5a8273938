/** The builder every quote test makes its quote fields with. */

/** Quote fields of type `F`: the test's sample with `overrides` laid over it. */
export type QuoteBuilder<F> = (overrides?: Partial<F>) => F;

/**
 * A builder of quote fields like `sample` (an `EcdsaQuoteFields` or `Ed25519QuoteFields`, see
 * docs/api.md "ECDSA quote" and "Ed25519 quote"); each call returns a fresh object.
 *
 * @example
 * const aQuote = quoteBuilder<EcdsaQuoteFields>({ ...fields });
 * aQuote({ isNative: true }); // the sample, paid in the native token
 */
export function quoteBuilder<F extends object>(sample: F): QuoteBuilder<F> {
  return (overrides = {}) => ({ ...sample, ...overrides });
}
