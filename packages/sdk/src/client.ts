/**
 * One object for a widget: both API clients and the transfer steps bound to them
 * (getQuote or quote -> buildTransfer -> sendTransfer -> trackTransfer). See docs/sdk.md.
 */
import type { Account, Address, Chain, PublicClient, Transport, WalletClient } from 'viem';
import { CIRCLE_IRIS_MAINNET_URL } from './addresses.js';
import { GasQuoteClient, type QuoteRequest } from './gas-quote-client.js';
import type { HttpOptions } from './http.js';
import { MonitoringClient } from './monitoring-client.js';
import {
  getQuote,
  type GetQuoteOptions,
  type SignerIdentities,
  type VerifiedQuote,
} from './quote.js';
import { readContractFeeBps, sendTransfer, type SendOptions, type SentTransfer } from './send.js';
import { trackTransfer, type TrackOptions, type TrackResult } from './track.js';
import {
  buildTransfer,
  quoteTransfer,
  type BuildContext,
  type CostInput,
  type TransferInput,
  type TransferPlan,
  type TransferQuote,
} from './transfer.js';

/** Configuration of {@link createCtssClient}. */
export interface CtssClientConfig {
  /** Gas Quote API base URL, e.g. `http://localhost:3001`. */
  readonly gasQuoteUrl: string;
  /** Monitoring API base URL, e.g. `http://localhost:3000`. */
  readonly monitoringUrl: string;
  /** Iris base URL for Circle's fee table (default mainnet Iris; `null`: the local fallback only). */
  readonly irisUrl?: string | null;
  /** Pinned signer identities (default: those `/routes` reports). */
  readonly signers?: SignerIdentities;
  readonly http?: HttpOptions;
}

/** Where a transfer is sent from. */
export interface OriginContext {
  readonly publicClient: PublicClient;
  /** The CashmereCCTP contract on the origin. */
  readonly contract: Address;
}

/** The SDK bound to one deployment of the APIs. */
export interface CtssClient {
  readonly gasQuote: GasQuoteClient;
  readonly monitoring: MonitoringClient;
  /** {@link getQuote} with the pinned signers. */
  getQuote(route: QuoteRequest, options?: GetQuoteOptions): Promise<VerifiedQuote>;
  /**
   * {@link getQuote} then {@link quoteTransfer}: the verified quote and what a transfer of
   * `input.amount` costs (the user pays in USDC and native wei, the recipient gets), with the
   * contract fee of `/routes`, else read from `origin`.
   */
  quote(
    route: QuoteRequest,
    input: CostInput,
    origin?: OriginContext,
    options?: GetQuoteOptions,
  ): Promise<TransferQuote>;
  /** {@link buildTransfer}; reads the contract fee from `origin` when `/routes` lacks it. */
  buildTransfer(
    quote: VerifiedQuote,
    input: TransferInput,
    origin?: OriginContext,
  ): Promise<TransferPlan>;
  /** {@link sendTransfer}. */
  sendTransfer(
    wallet: WalletClient<Transport, Chain | undefined, Account | undefined>,
    plan: TransferPlan,
    options: SendOptions,
  ): Promise<SentTransfer>;
  /** {@link trackTransfer} against the Monitoring API. */
  trackTransfer(hash: string, options?: TrackOptions): Promise<TrackResult>;
}

/**
 * Creates the SDK client.
 *
 * @throws {TypeError} when a base URL is not http(s).
 * @example
 * const ctss = createCtssClient({ gasQuoteUrl: 'http://localhost:3001', monitoringUrl: 'http://localhost:3000' });
 */
export function createCtssClient(config: CtssClientConfig): CtssClient {
  const http = config.http ?? {};
  const gasQuote = new GasQuoteClient(config.gasQuoteUrl, http);
  const monitoring = new MonitoringClient(config.monitoringUrl, http);
  const irisUrl =
    config.irisUrl === undefined ? CIRCLE_IRIS_MAINNET_URL : (config.irisUrl ?? undefined);
  const context = (origin?: OriginContext): BuildContext => ({
    ...(irisUrl ? { irisUrl } : {}),
    http,
    ...(origin
      ? { readContractFeeBps: () => readContractFeeBps(origin.publicClient, origin.contract) }
      : {}),
  });
  const verified = (route: QuoteRequest, options: GetQuoteOptions = {}) =>
    getQuote(gasQuote, route, { ...options, signers: { ...config.signers, ...options.signers } });
  return {
    gasQuote,
    monitoring,
    getQuote: verified,
    quote: async (route, input, origin, options) =>
      quoteTransfer(await verified(route, options), input, context(origin)),
    buildTransfer: (quote, input, origin) => buildTransfer(quote, input, context(origin)),
    sendTransfer: (wallet, plan, options) => sendTransfer(wallet, plan, options),
    trackTransfer: (hash, options) => trackTransfer(monitoring, hash, options),
  };
}
