/**
 * Interfaces of the feeder's data sources (gas prices per chain, native token USD prices, the
 * transfer contracts' percentage fees).
 */
import type { GasPrice } from '../../prices/entries.js';

/** A source of one chain's current gas price. */
export interface GasSource {
  /** CCTP domain the price is for. */
  readonly domain: number;
  /** Short name for logs and the stored entry, e.g. `evm-rpc`, `snapshot`. */
  readonly name: string;
  /** Fetches the current gas price. @throws on network, protocol or validation failure. */
  fetch(): Promise<GasPrice>;
}

/** A source of one origin's transfer contract percentage fee. */
export interface ContractFeeSource {
  /** CCTP domain of the origin whose transfer contract it reads. */
  readonly domain: number;
  /** Short name for logs and the stored entry: `contract` (read on-chain) or `snapshot`. */
  readonly name: string;
  /**
   * Fetches the contract's percentage fee, basis points of the transferred amount (0..10000).
   * @throws on network, protocol or validation failure.
   */
  fetch(): Promise<number>;
}

/** A USD price of one native token: fixed point, 10^8 scale, with its publish time (ms). */
export interface UsdQuote {
  readonly price: bigint;
  readonly observedAt: number;
}

/** A source of native token USD prices. */
export interface UsdSource {
  /** Short name for logs and the stored entry, e.g. `pyth`, `coingecko`. */
  readonly name: string;
  /**
   * Fetches prices for the symbols it knows among `symbols` (e.g. `ETH`, `SOL`). Symbols it cannot
   * price, or whose price fails its checks, are absent from the result.
   * @throws when the whole request fails.
   */
  fetch(symbols: readonly string[]): Promise<Map<string, UsdQuote>>;
}
