/**
 * Typed client of the Gas Quote API (docs/api.md "Gas Quote API"): routes, ECDSA and Ed25519
 * quotes, token prices. Every response is validated with the `@ctss/domain-types` schema of the
 * endpoint; problem details become {@link ApiProblemError}s.
 */
import {
  EcdsaQuote,
  Ed25519Quote,
  RouteInfo,
  RoutesResponse,
  TokenPrices,
  z,
} from '@ctss/domain-types';
import { getJson, normalizeBase, type CallOptions, type HttpOptions } from './http.js';

/**
 * A route as `/routes` serves it (docs/api.md "Routes"), its contract fee fields optional so that
 * a server that does not publish them is still read: `contractFeeBps` is the origin transfer
 * contract's percentage fee in basis points, `contractFeeSource` `contract` (read on-chain by the
 * server) or `snapshot` (its bundled default), null or absent when unknown (then read it from the
 * contract).
 */
export const SdkRouteInfo = RouteInfo.extend({
  contractFeeBps: RouteInfo.shape.contractFeeBps.optional(),
  contractFeeSource: RouteInfo.shape.contractFeeSource.optional(),
  contractFeeAgeSeconds: RouteInfo.shape.contractFeeAgeSeconds.optional(),
});
export type SdkRouteInfo = z.infer<typeof SdkRouteInfo>;

/** `GET /routes` with {@link SdkRouteInfo} entries. */
export const SdkRoutesResponse = RoutesResponse.extend({ routes: z.array(SdkRouteInfo) });
export type SdkRoutesResponse = z.infer<typeof SdkRoutesResponse>;

/** The route of a quote request. */
export interface QuoteRequest {
  /** Origin CCTP domain. */
  readonly localDomain: number;
  /** Destination CCTP domain. */
  readonly destinationDomain: number;
  /** CCTP version the transfer will use (1 or 2). */
  readonly version: 1 | 2;
  /** True to pay the relayer fee and gas drop in the origin's native token. */
  readonly isNative: boolean;
}

/** Client of one Gas Quote API deployment. */
export class GasQuoteClient {
  readonly baseUrl: string;

  /** @param baseUrl e.g. `http://localhost:3001`. @throws {TypeError} for a non-http(s) URL. */
  constructor(
    baseUrl: string,
    private readonly http: HttpOptions = {},
  ) {
    this.baseUrl = normalizeBase(baseUrl);
  }

  /**
   * `GET /routes`, optionally filtered (docs/api.md "Routes").
   *
   * @throws {ApiProblemError} 404 `UNSUPPORTED_ROUTE` for a route that is not served, 400, 429, 500.
   * @throws {ResponseValidationError} for a body that is not a routes response.
   */
  routes(
    filter: { localDomain?: number; destinationDomain?: number } = {},
    call?: CallOptions,
  ): Promise<SdkRoutesResponse> {
    const q = new URLSearchParams();
    if (filter.localDomain !== undefined) q.set('localDomain', String(filter.localDomain));
    if (filter.destinationDomain !== undefined)
      q.set('destinationDomain', String(filter.destinationDomain));
    const qs = q.size > 0 ? `?${q.toString()}` : '';
    return getJson(`${this.baseUrl}/routes${qs}`, SdkRoutesResponse, this.http, call);
  }

  /**
   * `GET /getEcdsaSig_native` (docs/api.md "ECDSA quote"), unverified: use getQuote to verify.
   *
   * @throws {ApiProblemError} 400 `INVALID_QUERY`/`UNSUPPORTED_ROUTE`, 500 `MISSING_PRICE_DATA`, 429.
   */
  ecdsaQuote(r: QuoteRequest, call?: CallOptions): Promise<EcdsaQuote> {
    const q = new URLSearchParams({
      localDomain: String(r.localDomain),
      destinationDomain: String(r.destinationDomain),
      isV2: String(r.version === 2),
      isNative: String(r.isNative),
    });
    return getJson(
      `${this.baseUrl}/getEcdsaSig_native?${q.toString()}`,
      EcdsaQuote,
      this.http,
      call,
    );
  }

  /**
   * `GET /getEd25519Sig_native` with `version` (docs/api.md "Ed25519 quote"), unverified.
   *
   * @throws {ApiProblemError} as {@link ecdsaQuote}.
   */
  ed25519Quote(r: QuoteRequest, call?: CallOptions): Promise<Ed25519Quote> {
    const q = new URLSearchParams({
      localDomain: String(r.localDomain),
      destinationDomain: String(r.destinationDomain),
      isNative: String(r.isNative),
      version: String(r.version),
    });
    return getJson(
      `${this.baseUrl}/getEd25519Sig_native?${q.toString()}`,
      Ed25519Quote,
      this.http,
      call,
    );
  }

  /** `GET /tokenPrices`: USD per whole native token by domain (floats, display only). */
  tokenPrices(call?: CallOptions): Promise<TokenPrices> {
    return getJson(`${this.baseUrl}/tokenPrices`, TokenPrices, this.http, call);
  }
}
