/**
 * Issues signed quotes: validates the route, prices it from fresh data, signs it (ECDSA for EVM
 * origins, Ed25519 over BCS for Solana/Aptos/Sui origins) and reuses a quote made for the same
 * inputs in the same second, with its response body (signatures are deterministic: RFC 6979 /
 * RFC 8032, so the reused quote is the one signing again would give).
 */
import { LRUCache } from 'lru-cache';
import type {
  ChainRegistry,
  CctpVersion,
  EcdsaQuote,
  EcdsaQuoteQuery,
  Ed25519Quote,
  Ed25519QuoteQuery,
} from '@ctss/domain-types';
import { HttpProblem } from '@ctss/server-kit';
import {
  encodeQuoteMessage,
  signEd25519,
  signQuote,
  type Ed25519Signer,
  type QuotePacking,
  type Secp256k1Signer,
} from '@ctss/signing';
import type { GasQuoteMetrics } from '../metrics.js';
import type { RoutePricer } from '../pricing/route-pricer.js';
import type { QuoteSigners } from './signers.js';
import type { Clock } from '../clock.js';

/** Quote validity, seconds (docs/api.md "Limits": deadline = now + 100). */
export const QUOTE_VALIDITY_SECONDS = 100n;

/** Dependencies of {@link createQuoteService}. */
export interface QuoteServiceDeps {
  readonly registry: ChainRegistry;
  readonly pricer: RoutePricer;
  readonly clock: Clock;
  readonly ecdsaSigner: Secp256k1Signer;
  readonly ed25519Signer: Ed25519Signer;
  /** ECDSA packing for an origin domain (docs/decisions.md "D1. Quote packing per origin chain"). */
  readonly packingFor: (localDomain: number) => QuotePacking;
  readonly metrics: Pick<GasQuoteMetrics, 'quotesSigned'>;
  /** Quotes kept per scheme in the LRU of signed quotes (default 1024). */
  readonly cacheSize?: number;
}

/** A signed quote and its response body, `json` being `JSON.stringify(quote)`. */
export interface SignedQuote<Q> {
  readonly quote: Q;
  readonly json: string;
}

/** Issues quotes; errors are HttpProblem (400 UNSUPPORTED_ROUTE) or MissingPriceDataError. */
export interface QuoteService {
  /** `GET /getEcdsaSig_native` (docs/api.md "ECDSA quote"). */
  ecdsa(query: EcdsaQuoteQuery): Promise<SignedQuote<EcdsaQuote>>;
  /** `GET /getEd25519Sig_native` (docs/api.md "Ed25519 quote"). */
  ed25519(query: Ed25519QuoteQuery): Promise<SignedQuote<Ed25519Quote>>;
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/**
 * The ECDSA packing of each origin domain: the QUOTE_PACKING_<DOMAIN> setting, else "spec"
 * (docs/decisions.md "D1. Quote packing per origin chain").
 */
export function quotePackingFor(
  configured: ReadonlyMap<number, QuotePacking>,
): (localDomain: number) => QuotePacking {
  return (domain) => configured.get(domain) ?? 'spec';
}

/** The public identities of the signers: checksummed ECDSA address, 0x hex Ed25519 public key. */
export interface SignerIdentities {
  readonly ecdsaAddress: string;
  readonly ed25519PublicKey: string;
}

/** The identities of `signers`, as `/routes` and `/health` report them. */
export function signerIdentities(signers: QuoteSigners): SignerIdentities {
  return { ecdsaAddress: signers.ecdsa.address, ed25519PublicKey: hex(signers.ed25519.publicKey) };
}

/** Signed quotes kept per scheme (least recently used evicted first). */
const QUOTE_CACHE_ENTRIES = 1024;

/**
 * Most bytes of signed quotes kept per scheme (docs/operations.md "Memory"): each entry counts
 * its key and twice its JSON (the text and the frozen quote object it was made from).
 */
const QUOTE_CACHE_MAX_BYTES = 4 * 1024 * 1024;

/** An LRU of signed quotes bounded by {@link QUOTE_CACHE_MAX_BYTES} and `entries` (lru-cache). */
function quoteCache<Q>(entries: number): LRUCache<string, SignedQuote<Q>> {
  return new LRUCache<string, SignedQuote<Q>>({
    max: entries,
    maxSize: QUOTE_CACHE_MAX_BYTES,
    sizeCalculation: (signed, key) => 2 * signed.json.length + key.length,
  });
}

/** Builds a {@link QuoteService}. */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const ecdsaQuotes = quoteCache<EcdsaQuote>(deps.cacheSize ?? QUOTE_CACHE_ENTRIES);
  const ed25519Quotes = quoteCache<Ed25519Quote>(deps.cacheSize ?? QUOTE_CACHE_ENTRIES);
  const publicKey = hex(deps.ed25519Signer.publicKey);

  function checkRoute(
    local: number,
    dest: number,
    version: CctpVersion,
    scheme: 'ecdsa' | 'ed25519',
  ): void {
    const origin = deps.registry.get(local);
    const target = deps.registry.get(dest);
    if (!origin)
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        `localDomain ${local} is not a served domain`,
      );
    if (!target)
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        `destinationDomain ${dest} is not a served domain`,
      );
    if (local === dest)
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        'localDomain and destinationDomain must differ',
      );
    if (scheme === 'ecdsa' && origin.vm !== 'evm') {
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        `ECDSA quotes are for EVM origins; ${origin.name} uses /getEd25519Sig_native`,
      );
    }
    if (scheme === 'ed25519' && origin.vm === 'evm') {
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        `Ed25519 quotes are for Solana, Aptos and Sui origins; ${origin.name} uses /getEcdsaSig_native`,
      );
    }
    if (!deps.registry.isRouteSupported(local, dest, version)) {
      throw new HttpProblem(
        400,
        'UNSUPPORTED_ROUTE',
        `no CCTP v${version} route from ${origin.name} to ${target.name}`,
      );
    }
  }

  /**
   * The quote under `key` (every signed input, so equal keys sign equal bytes), else a new one
   * from `sign`, kept for the next request with the same inputs.
   */
  function cached<Q>(
    cache: LRUCache<string, SignedQuote<Q>>,
    key: string,
    scheme: 'ecdsa' | 'ed25519',
    sign: () => Q,
  ): SignedQuote<Q> {
    const hit = cache.get(key);
    deps.metrics.quotesSigned.inc({ scheme, cached: hit === undefined ? 'false' : 'true' });
    if (hit !== undefined) return hit;
    const quote = sign();
    const signed = { quote: Object.freeze(quote), json: JSON.stringify(quote) };
    cache.set(key, signed);
    return signed;
  }

  const deadlineNow = () => BigInt(Math.floor(deps.clock() / 1000)) + QUOTE_VALIDITY_SECONDS;

  return {
    async ecdsa(q) {
      const cctpVersion: CctpVersion = q.isV2 ? 2 : 1;
      checkRoute(q.localDomain, q.destinationDomain, cctpVersion, 'ecdsa');
      const priced = await deps.pricer.price(q.localDomain, q.destinationDomain);
      const fee = q.isNative ? priced.feeNative : priced.feeBase;
      const deadline = deadlineNow();
      const packing = deps.packingFor(q.localDomain);
      const key = `${packing}|${q.localDomain}|${q.destinationDomain}|${fee}|${deadline}|${q.isNative}|${cctpVersion}`;
      return cached(ecdsaQuotes, key, 'ecdsa', () => ({
        fee: fee.toString(),
        deadline: deadline.toString(),
        signature: signQuote(
          {
            localDomain: q.localDomain,
            destinationDomain: q.destinationDomain,
            fee,
            deadline,
            isNative: q.isNative,
            cctpVersion,
          },
          packing,
          deps.ecdsaSigner,
        ),
        isNative: q.isNative,
        cctpVersion,
      }));
    },

    async ed25519(q) {
      // Solana sends version=2 for its v2 entrypoints; without it (Aptos, Sui, Solana v1) the route is v1.
      const cctpVersion: CctpVersion = q.version === 2 ? 2 : 1;
      checkRoute(q.localDomain, q.destinationDomain, cctpVersion, 'ed25519');
      const priced = await deps.pricer.price(q.localDomain, q.destinationDomain);
      const fee = q.isNative ? priced.feeNative : priced.feeBase;
      const deadline = deadlineNow();
      // The BCS message is a function of these fields (docs/decisions.md "D2. Ed25519 BCS message
      // and the version byte").
      const key = `${q.version ?? ''}|${q.localDomain}|${q.destinationDomain}|${fee}|${deadline}|${q.isNative}`;
      return cached(ed25519Quotes, key, 'ed25519', () => {
        const message = encodeQuoteMessage({
          ...(q.version !== undefined ? { version: q.version } : {}),
          localDomain: q.localDomain,
          destinationDomain: q.destinationDomain,
          fee,
          deadline,
          isNative: q.isNative,
        });
        return {
          signature: hex(signEd25519(message, deps.ed25519Signer)),
          message: hex(message),
          publicKey,
          destinationDomain: String(q.destinationDomain),
          fee: fee.toString(),
          deadline: deadline.toString(),
          isNative: q.isNative,
          ...(q.version !== undefined ? { version: q.version } : {}),
        };
      });
    },
  };
}
