/**
 * The chain registry: every CCTP domain this service serves, with the facts pricing and route
 * validation need. Source: docs/architecture.md "Chains" and docs/api.md "Fee computation"; minimum
 * relayer fees from docs/api.md "Limits"; domain numbering is Circle's public CCTP numbering.
 */

/** The virtual-machine family of a chain; it decides the quote signature scheme and address format. */
export type VmFamily = 'evm' | 'solana' | 'sui' | 'aptos';

/** CCTP protocol version of a transfer (docs/api.md "Versioning"). */
export type CctpVersion = 1 | 2;

/** One served chain. All fee amounts are bridge asset base units (6 decimals). */
export interface ChainInfo {
  /** CCTP domain id (uint32). */
  readonly domain: number;
  /** Stable lower-case key, e.g. `ethereum`, used in configuration and logs. */
  readonly key: string;
  /** Human-readable name. */
  readonly name: string;
  readonly vm: VmFamily;
  /** Symbol of the native gas token, e.g. `ETH`, `SOL`. */
  readonly nativeSymbol: string;
  /** Decimals of the native gas token's smallest unit (wei: 18, lamports: 9, MIST: 9, octas: 8). */
  readonly nativeDecimals: number;
  /** Whether CCTP v1 transfers from or to this chain are offered. */
  readonly cctpV1: boolean;
  /** Whether CCTP v2 transfers from or to this chain are offered. */
  readonly cctpV2: boolean;
  /** Minimum relayer fee for a transfer INTO this chain, bridge asset base units (docs/api.md "Limits"). */
  readonly minRelayerFee: bigint;
  /** Gas units (EVM gas, Solana compute units, ...) a redeem on this chain uses; pricing default. */
  readonly redeemGas: bigint;
}

/** Default minimum relayer fee, base units (0.08 of the bridge asset). Source: docs/api.md "Limits". */
export const DEFAULT_MIN_RELAYER_FEE = 80_000n;

/**
 * What a chain's VM family decides (docs/architecture.md "Chains"): the native token's decimals,
 * whether CCTP v2 is offered (v2 routes are EVM<->EVM and EVM<->Solana, so Sui and Aptos are v1
 * only) and the redeem gas default, gas units.
 */
const FAMILY_FACTS: Readonly<
  Record<VmFamily, Pick<ChainInfo, 'nativeDecimals' | 'cctpV2' | 'redeemGas'>>
> = {
  evm: { nativeDecimals: 18, cctpV2: true, redeemGas: 200_000n },
  solana: { nativeDecimals: 9, cctpV2: true, redeemGas: 400_000n },
  sui: { nativeDecimals: 9, cctpV2: false, redeemGas: 10_000_000n },
  aptos: { nativeDecimals: 8, cctpV2: false, redeemGas: 2_000n },
};

/** A served chain of family `vm`: CCTP v1 and the default minimum fee unless `opts` says otherwise. */
const chain = (
  vm: VmFamily,
  domain: number,
  key: string,
  name: string,
  nativeSymbol: string,
  opts: { cctpV1?: boolean; minRelayerFee?: bigint } = {},
): ChainInfo => ({
  domain,
  key,
  name,
  vm,
  nativeSymbol,
  nativeDecimals: FAMILY_FACTS[vm].nativeDecimals,
  cctpV1: opts.cctpV1 ?? true,
  cctpV2: FAMILY_FACTS[vm].cctpV2,
  minRelayerFee: opts.minRelayerFee ?? DEFAULT_MIN_RELAYER_FEE,
  redeemGas: FAMILY_FACTS[vm].redeemGas,
});

/**
 * The default registry, by docs/architecture.md "Chains". CCTP v1 is not offered from or to Linea,
 * World Chain, Sei, Sonic, HyperEVM or Monad.
 */
export const DEFAULT_CHAINS: readonly ChainInfo[] = [
  chain('evm', 0, 'ethereum', 'Ethereum', 'ETH', { minRelayerFee: 200_000n }),
  chain('evm', 1, 'avalanche', 'Avalanche', 'AVAX'),
  chain('evm', 2, 'optimism', 'OP Mainnet', 'ETH'),
  chain('evm', 3, 'arbitrum', 'Arbitrum', 'ETH'),
  chain('solana', 5, 'solana', 'Solana', 'SOL', { minRelayerFee: 590_000n }),
  chain('evm', 6, 'base', 'Base', 'ETH'),
  chain('evm', 7, 'polygon', 'Polygon PoS', 'POL'),
  chain('sui', 8, 'sui', 'Sui', 'SUI'),
  chain('aptos', 9, 'aptos', 'Aptos', 'APT'),
  chain('evm', 10, 'unichain', 'Unichain', 'ETH'),
  chain('evm', 11, 'linea', 'Linea', 'ETH', { cctpV1: false, minRelayerFee: 100_000n }),
  chain('evm', 13, 'sonic', 'Sonic', 'S', { cctpV1: false }),
  chain('evm', 14, 'worldchain', 'World Chain', 'ETH', { cctpV1: false }),
  chain('evm', 15, 'monad', 'Monad', 'MON', { cctpV1: false }),
  chain('evm', 16, 'sei', 'Sei', 'SEI', { cctpV1: false }),
  chain('evm', 19, 'hyperevm', 'HyperEVM', 'HYPE', { cctpV1: false, minRelayerFee: 100_000n }),
];

/** Per-domain overrides of registry fields, e.g. from configuration. */
export type ChainOverrides = Readonly<Record<number, Partial<Omit<ChainInfo, 'domain'>>>>;

/** Raised when a domain is not in the registry. */
export class UnknownDomainError extends Error {
  constructor(readonly domain: number) {
    super(`CCTP domain ${domain} is not served`);
    this.name = 'UnknownDomainError';
  }
}

/**
 * A lookup over served chains with route validation.
 *
 * @example
 * const chains = createChainRegistry();
 * chains.isRouteSupported(0, 3, 2); // true: Ethereum -> Arbitrum over CCTP v2
 */
export interface ChainRegistry {
  /** Every served chain, ordered by domain id. */
  all(): readonly ChainInfo[];
  /** The chain for a domain, or undefined when the domain is not served. */
  get(domain: number): ChainInfo | undefined;
  /** The chain for a domain. @throws UnknownDomainError when the domain is not served. */
  require(domain: number): ChainInfo;
  /**
   * Whether a transfer from `local` to `dest` exists over CCTP `version`: both domains served,
   * distinct, and both support that version; v2 routes are EVM<->EVM and EVM<->Solana only.
   */
  isRouteSupported(local: number, dest: number, version: CctpVersion): boolean;
}

/**
 * Builds a registry from `chains` (default {@link DEFAULT_CHAINS}) with per-domain `overrides`
 * merged over it. Overrides may only change existing domains; to add one, pass it in `chains`.
 *
 * @throws UnknownDomainError when an override names a domain that is not in `chains`.
 */
export function createChainRegistry(
  overrides: ChainOverrides = {},
  chains: readonly ChainInfo[] = DEFAULT_CHAINS,
): ChainRegistry {
  const byDomain = new Map<number, ChainInfo>(chains.map((c) => [c.domain, c]));
  for (const [key, patch] of Object.entries(overrides)) {
    const domain = Number(key);
    const base = byDomain.get(domain);
    if (!base) throw new UnknownDomainError(domain);
    byDomain.set(domain, { ...base, ...patch, domain });
  }
  const ordered = [...byDomain.values()].sort((a, b) => a.domain - b.domain);
  const get = (domain: number) => byDomain.get(domain);
  return {
    all: () => ordered,
    get,
    require(domain) {
      const chain = get(domain);
      if (!chain) throw new UnknownDomainError(domain);
      return chain;
    },
    isRouteSupported(local, dest, version) {
      if (local === dest) return false;
      const from = get(local);
      const to = get(dest);
      if (!from || !to) return false;
      if (version === 1) return from.cctpV1 && to.cctpV1;
      if (!from.cctpV2 || !to.cctpV2) return false;
      // v2 routes are EVM<->EVM and EVM<->Solana: at least one end is EVM, the other EVM or Solana.
      const v2Family = (c: ChainInfo) => c.vm === 'evm' || c.vm === 'solana';
      return v2Family(from) && v2Family(to) && (from.vm === 'evm' || to.vm === 'evm');
    },
  };
}
