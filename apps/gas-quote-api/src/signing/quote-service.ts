/**
 * Issues signed quotes: validates the route, prices it from fresh data, signs it (ECDSA for EVM
 * origins, Ed25519 over BCS for Solana/Aptos/Sui origins) and reuses a signature made for the
 * same inputs in the same second (signatures are deterministic: RFC 6979 / RFC 8032).
 */
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
import { LruCache } from './lru.js';

/** Quote validity, seconds (SPEC.md "Limits": deadline = now + 100). */
export const QUOTE_VALIDITY_SECONDS = 100n;

/** Dependencies of {@link createQuoteService}. */
export interface QuoteServiceDeps {
  readonly registry: ChainRegistry;
  readonly pricer: RoutePricer;
  /** Current time, ms since epoch. */
  readonly clock: () => number;
  readonly ecdsaSigner: Secp256k1Signer;
  readonly ed25519Signer: Ed25519Signer;
  /** ECDSA packing for an origin domain (DESIGN.md "Signatures"). */
  readonly packingFor: (localDomain: number) => QuotePacking;
  readonly metrics: GasQuoteMetrics;
  /** Entries kept in the signature LRU (default 1024). */
  readonly cacheSize?: number;
}

/** Issues quotes; errors are HttpProblem (400 UNSUPPORTED_ROUTE) or MissingPriceDataError. */
export interface QuoteService {
  /** `GET /getEcdsaSig_native`. */
  ecdsa(query: EcdsaQuoteQuery): Promise<EcdsaQuote>;
  /** `GET /getEd25519Sig_native`. */
  ed25519(query: Ed25519QuoteQuery): Promise<Ed25519Quote>;
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** Builds a {@link QuoteService}. */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const cache = new LruCache<string, string>(deps.cacheSize ?? 1024);
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

  function cached(key: string, scheme: 'ecdsa' | 'ed25519', sign: () => string): string {
    const hit = cache.get(key);
    deps.metrics.quotesSigned.inc({ scheme, cached: hit === undefined ? 'false' : 'true' });
    if (hit !== undefined) return hit;
    const signature = sign();
    cache.set(key, signature);
    return signature;
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
      const fields = {
        localDomain: q.localDomain,
        destinationDomain: q.destinationDomain,
        fee,
        deadline,
        isNative: q.isNative,
        cctpVersion,
      };
      const key = `ecdsa|${packing}|${q.localDomain}|${q.destinationDomain}|${fee}|${deadline}|${q.isNative}|${cctpVersion}`;
      const signature = cached(key, 'ecdsa', () => signQuote(fields, packing, deps.ecdsaSigner));
      return {
        fee: fee.toString(),
        deadline: deadline.toString(),
        signature,
        isNative: q.isNative,
        cctpVersion,
      };
    },

    async ed25519(q) {
      // Solana sends version=2 for its v2 entrypoints; without it (Aptos, Sui, Solana v1) the route is v1.
      const cctpVersion: CctpVersion = q.version === 2 ? 2 : 1;
      checkRoute(q.localDomain, q.destinationDomain, cctpVersion, 'ed25519');
      const priced = await deps.pricer.price(q.localDomain, q.destinationDomain);
      const fee = q.isNative ? priced.feeNative : priced.feeBase;
      const deadline = deadlineNow();
      const message = encodeQuoteMessage({
        ...(q.version !== undefined ? { version: q.version } : {}),
        localDomain: q.localDomain,
        destinationDomain: q.destinationDomain,
        fee,
        deadline,
        isNative: q.isNative,
      });
      const messageHex = hex(message);
      const signature = cached(`ed25519|${messageHex}`, 'ed25519', () =>
        hex(signEd25519(message, deps.ed25519Signer)),
      );
      return {
        signature,
        message: messageHex,
        publicKey,
        destinationDomain: String(q.destinationDomain),
        fee: fee.toString(),
        deadline: deadline.toString(),
        isNative: q.isNative,
        ...(q.version !== undefined ? { version: q.version } : {}),
      };
    },
  };
}
