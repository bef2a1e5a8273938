/**
 * What the USD price sources share (docs/architecture.md "Price path": Pyth Hermes, then the
 * CoinGecko-style fallback): each upstream prices a native token by an id of its own (a Pyth feed
 * id, a CoinGecko coin id), so a source asks for the ids of the symbols it knows in one request,
 * asks nothing when it knows none of them, and turns each entry it gets back into a quote or
 * rejects it.
 */
import type { Clock } from '../../clock.js';
import type { UsdQuote, UsdSource } from './types.js';

/** Where the upstream is, and the clock its entries are checked against. */
export interface UsdSourceByIdOptions {
  /** The upstream's base URL, e.g. `https://hermes.pyth.network`; trailing slashes are dropped. */
  readonly baseUrl: string;
  /** Current time, ms since epoch. */
  readonly clock: Clock;
}

/** An upstream that prices native tokens by id, `E` being the entry it returns per id. */
export interface UsdUpstreamById<E> {
  /** Short name for logs and the stored entry, e.g. `pyth`, `coingecko`. */
  readonly name: string;
  /** The upstream's id per native symbol; a symbol without one is not asked for. */
  readonly ids: Readonly<Record<string, string>>;
  /**
   * Fetches the entries of `ids` (the wanted symbols' ids, in their order) from `base` (the base
   * URL without trailing slashes) in one request, and resolves to the lookup of an entry by one of
   * those ids (undefined: not in the answer).
   * @throws when the request fails (network, HTTP status, body shape).
   */
  fetchEntries(base: string, ids: readonly string[]): Promise<(id: string) => E | undefined>;
  /** The quote of `entry` at `now` (ms since epoch), or undefined when its checks reject it. */
  toQuote(entry: E, now: number): UsdQuote | undefined;
}

/**
 * A {@link UsdSource} over `upstream`: prices the symbols among those asked that have an id and
 * whose entry passes {@link UsdUpstreamById.toQuote}, checked at `options.clock()` once the
 * answer is in. @throws what {@link UsdUpstreamById.fetchEntries} throws.
 */
export function createUsdSourceById<E>(
  options: UsdSourceByIdOptions,
  upstream: UsdUpstreamById<E>,
): UsdSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: upstream.name,
    async fetch(symbols) {
      const wanted = symbols.filter((s) => upstream.ids[s] !== undefined);
      const out = new Map<string, UsdQuote>();
      if (wanted.length === 0) return out;
      const entryOf = await upstream.fetchEntries(
        base,
        wanted.map((s) => upstream.ids[s]!),
      );
      const now = options.clock();
      for (const symbol of wanted) {
        const entry = entryOf(upstream.ids[symbol]!);
        const quote = entry === undefined ? undefined : upstream.toQuote(entry, now);
        if (quote) out.set(symbol, quote);
      }
      return out;
    },
  };
}
