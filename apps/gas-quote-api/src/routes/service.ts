/**
 * Route discovery (docs/api.md "Routes"; docs/decisions.md "D56. Route discovery and no-store
 * quotes"): every served route with its CCTP versions, signature scheme, ECDSA packing, minimum
 * fee, quote validity, current fee with its parts and the origin transfer contract's percentage
 * fee with its source and age, plus the signer identities. Each route's
 * entry is computed once per price snapshot and route (PriceSnapshot.derived), from the same
 * inputs and formula the quote endpoints use.
 */
import type { ChainInfo, ChainRegistry, CctpVersion, RouteInfo } from '@ctss/domain-types';
import { HttpProblem } from '@ctss/server-kit';
import type { QuotePacking } from '@ctss/signing';
import type { Clock } from '../clock.js';
import { MissingPriceDataError } from '../prices/entries.js';
import { PriceSnapshot } from '../prices/snapshot.js';
import type { PriceStore } from '../prices/store.js';
import { computeRouteFee } from '../pricing/fee.js';
import { USD_DECIMALS, formatFixed } from '../fixed-point.js';
import type { PricingParams } from '../pricing/route-pricer.js';
import { ECDSA_QUOTE_PATH, ED25519_QUOTE_PATH } from '../quotes/paths.js';
import { QUOTE_VALIDITY_SECONDS, type SignerIdentities } from '../quotes/service.js';

/** Dependencies of {@link createRoutesService}. */
export interface RoutesDeps {
  readonly registry: ChainRegistry;
  readonly priceStore: Pick<PriceStore, 'snapshot'>;
  readonly params: PricingParams;
  /** ECDSA packing of an origin domain (docs/decisions.md "D1. Quote packing per origin chain"). */
  readonly packingFor: (localDomain: number) => QuotePacking;
  readonly clock: Clock;
  /** Signer identities: checksummed ECDSA address and 0x hex 32-byte Ed25519 public key. */
  readonly signers: SignerIdentities;
}

/** A route's fee as computed from one snapshot, with the oldest observation time it read (ms). */
interface PricedEntry {
  readonly fee: NonNullable<RouteInfo['fee']>;
  readonly oldestObservation: number;
}

/** The CCTP versions the quote endpoints accept for `local` to `dest` (empty: no route). */
function routeVersions(
  registry: ChainRegistry,
  local: number,
  dest: number,
): readonly CctpVersion[] {
  if (local === dest) return [];
  return ([1, 2] as const).filter((v) => registry.isRouteSupported(local, dest, v));
}

/**
 * Prices `origin` to `target` from `snapshot` with the inputs of the route pricer
 * (src/pricing/route-pricer.ts) and the formula of docs/api.md "Fee computation".
 * @throws MissingPriceDataError when an entry needed is missing or stale.
 */
function priceEntry(
  snapshot: PriceSnapshot,
  origin: ChainInfo,
  target: ChainInfo,
  params: PricingParams,
  now: number,
): PricedEntry {
  const gas = snapshot.gas(target.domain);
  const destUsd = snapshot.usd(target.nativeSymbol);
  const originUsd = snapshot.usd(origin.nativeSymbol);
  const redeemGas = params.redeemGas(target.domain);
  const adjustmentBps = params.adjustmentBps(target.domain);
  const fee = computeRouteFee({
    destGasPrice: gas,
    destRedeemGas: redeemGas,
    destPriceUsd: destUsd.price,
    adjustmentBps,
    minFee: target.minRelayerFee,
    originPriceUsd: originUsd.price,
    originDecimals: origin.nativeDecimals,
  });
  const oldestObservation = Math.min(gas.observedAt, destUsd.observedAt, originUsd.observedAt);
  return {
    oldestObservation,
    fee: {
      base: fee.feeBase.toString(),
      native: fee.feeNative.toString(),
      parts: {
        destGasPrice: gas.price.toString(),
        destGasPriceDecimals: gas.decimals,
        redeemGas: redeemGas.toString(),
        destNativePriceUsd: formatFixed(destUsd.price, USD_DECIMALS),
        originNativePriceUsd: formatFixed(originUsd.price, USD_DECIMALS),
        adjustmentBps: Number(adjustmentBps),
        minFeeApplied: fee.feeBaseRaw < target.minRelayerFee,
        priceAgeSeconds: Math.max(0, Math.floor((now - oldestObservation) / 1000)),
      },
    },
  };
}

/** The contract fee fields of a route from `origin`: the fresh stored value, else all null. */
function contractFeeOf(
  snapshot: PriceSnapshot,
  origin: number,
  now: number,
): Pick<RouteInfo, 'contractFeeBps' | 'contractFeeSource' | 'contractFeeAgeSeconds'> {
  try {
    const reading = snapshot.contractFee(origin);
    return {
      contractFeeBps: reading.bps,
      contractFeeSource: reading.source === 'contract' ? 'contract' : 'snapshot',
      contractFeeAgeSeconds: Math.max(0, Math.floor((now - reading.observedAt) / 1000)),
    };
  } catch (err) {
    if (!(err instanceof MissingPriceDataError)) throw err;
    return { contractFeeBps: null, contractFeeSource: null, contractFeeAgeSeconds: null };
  }
}

/** The `GET /routes` filters: either domain, both (one route) or none. */
interface RoutesFilter {
  readonly localDomain?: number | undefined;
  readonly destinationDomain?: number | undefined;
}

/** The `GET /routes` body: signer identities and the routes matched. */
interface RoutesListing {
  readonly signers: RoutesDeps['signers'];
  readonly routes: RouteInfo[];
}

/** Lists routes; see {@link createRoutesService}. */
export interface RoutesService {
  /**
   * The routes matching `filter`, with their fees from the current price snapshot.
   *
   * - A filter naming a domain that is not served, equal domains, or a pair with no CCTP route:
   *   HttpProblem 404 UNSUPPORTED_ROUTE.
   * - Both filters given (one route): a missing or stale price throws MissingPriceDataError
   *   (500 MISSING_PRICE_DATA, as for a quote). Otherwise such a route is listed with `fee: null`
   *   and the reason in `feeUnavailable`, and the others are still served.
   * - `priceAgeSeconds` is computed at the time the entry is priced, so a reused entry reports
   *   the age at its computation (at most one snapshot's lifetime behind).
   * @throws MissingPriceDataError when no snapshot can be read at all (store down, nothing read yet).
   */
  list(filter: RoutesFilter): Promise<RoutesListing>;
}

/** Builds a {@link RoutesService}. */
export function createRoutesService(deps: RoutesDeps): RoutesService {
  const { registry } = deps;
  const validity = Number(QUOTE_VALIDITY_SECONDS);

  function requireServed(domain: number, name: string): void {
    if (!registry.get(domain))
      throw new HttpProblem(404, 'UNSUPPORTED_ROUTE', `${name} ${domain} is not a served domain`);
  }

  function entry(
    snapshot: PriceSnapshot,
    origin: ChainInfo,
    target: ChainInfo,
    versions: readonly CctpVersion[],
    single: boolean,
  ): RouteInfo {
    const evm = origin.vm === 'evm';
    let fee: RouteInfo['fee'] = null;
    let feeUnavailable: string | undefined;
    try {
      fee = snapshot.derived(`routes:${origin.domain}:${target.domain}`, () =>
        priceEntry(snapshot, origin, target, deps.params, deps.clock()),
      ).fee;
    } catch (err) {
      if (single || !(err instanceof MissingPriceDataError)) throw err;
      feeUnavailable = err.message;
    }
    return {
      localDomain: origin.domain,
      destinationDomain: target.domain,
      cctpVersions: [...versions],
      signatureScheme: evm ? 'ecdsa' : 'ed25519',
      quotePath: evm ? ECDSA_QUOTE_PATH : ED25519_QUOTE_PATH,
      ecdsaPacking: evm ? deps.packingFor(origin.domain) : null,
      minFee: target.minRelayerFee.toString(),
      quoteValiditySeconds: validity,
      fee,
      ...(feeUnavailable !== undefined ? { feeUnavailable } : {}),
      ...contractFeeOf(snapshot, origin.domain, deps.clock()),
    };
  }

  return {
    async list({ localDomain, destinationDomain }) {
      if (localDomain !== undefined) requireServed(localDomain, 'localDomain');
      if (destinationDomain !== undefined) requireServed(destinationDomain, 'destinationDomain');
      const single = localDomain !== undefined && destinationDomain !== undefined;
      if (single && routeVersions(registry, localDomain, destinationDomain).length === 0) {
        throw new HttpProblem(
          404,
          'UNSUPPORTED_ROUTE',
          localDomain === destinationDomain
            ? 'localDomain and destinationDomain must differ'
            : `no CCTP route from domain ${localDomain} to domain ${destinationDomain}`,
        );
      }
      const pending = deps.priceStore.snapshot();
      // No readable snapshot at all (store down, nothing read yet) rejects with
      // MissingPriceDataError: there is no fee to give for any route.
      const snapshot = pending instanceof PriceSnapshot ? pending : await pending;
      const routes: RouteInfo[] = [];
      for (const origin of registry.all()) {
        if (localDomain !== undefined && origin.domain !== localDomain) continue;
        for (const target of registry.all()) {
          if (destinationDomain !== undefined && target.domain !== destinationDomain) continue;
          const versions = routeVersions(registry, origin.domain, target.domain);
          if (versions.length === 0) continue;
          routes.push(entry(snapshot, origin, target, versions, single));
        }
      }
      return { signers: deps.signers, routes };
    },
  };
}
