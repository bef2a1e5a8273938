/**
 * The part of negotiator 0.6.4 (jshttp, `lib/encoding.js` and its README "encoding(availableEncodings,
 * preferred)") that compression.ts uses. Declared here because `@types/negotiator` 0.6 predates the
 * `preferred` argument, which the compression package passes and whose tie-breaking
 * compression.ts must reproduce.
 */
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  /** The negotiation of one request's `Accept-*` headers. */
  class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /**
     * The most preferred of `available` by the request's `Accept-Encoding` (quality first, then
     * the order of `preferred` between equal qualities); undefined when none is acceptable.
     */
    encoding(available?: readonly string[], preferred?: readonly string[]): string | undefined;
  }
  export default Negotiator;
}
