/**
 * Name resolution for `addr_or_tx_hash` (docs/api.md "Transaction feeds";
 * docs/decisions.md "D10. Name resolution"): `.eth` through ENS, `.sol` through the Solana Name Service. A name that is
 * malformed, cannot be resolved, or whose chain has no RPC configured is a 400 INVALID_NAME; an
 * RPC that cannot be reached is a 503 SERVICE_UNAVAILABLE (the name may well be valid).
 * Resolutions (also "no such name") are cached in-process for NAME_CACHE_TTL_SECONDS.
 */
import { HttpProblem } from '@ctss/server-kit';
import { LRUCache } from 'lru-cache';
import type { Address } from 'viem';
import { normalize } from 'viem/ens';
import { NAMES_CONFIG_DEFAULTS, type NamesConfig } from './config.js';
import { createEnsLookup } from './ens.js';
import { createSnsLookup } from './sns-lookup.js';

/** Which naming system a name belongs to. */
type NameKind = 'ens' | 'sns';

/** A resolved name. */
interface ResolvedName {
  /** The name as normalized before lookup (ENSIP-15 for `.eth`, lower case for `.sol`). */
  name: string;
  kind: NameKind;
  /** EVM address (EIP-55 checksummed) for `.eth`, base58 wallet for `.sol`. */
  address: string;
}

/** Resolves `.eth` / `.sol` names to addresses. */
export interface NameResolver {
  /** Whether `value` looks like a name this resolver handles (ends in `.eth` or `.sol`, any case). */
  isName(value: string): boolean;
  /**
   * Resolves a name.
   *
   * @throws HttpProblem 400 INVALID_NAME (malformed, unresolvable, or chain not configured),
   *         503 SERVICE_UNAVAILABLE (RPC failure).
   */
  resolve(value: string): Promise<ResolvedName>;
}

/**
 * Configuration fields the resolver reads (a subset of the app config). The name-resolution
 * fields fall back to the defaults of `namesConfigSchema` when absent.
 */
export type NameResolverConfig = {
  /** Ethereum JSON-RPC URL; absent = `.eth` names are a 400. */
  ETH_RPC_URL?: string | undefined;
  /** Solana JSON-RPC URL; absent = `.sol` names are a 400. */
  SOLANA_RPC_URL?: string | undefined;
} & Partial<NamesConfig>;

/** Options for tests: a clock for cache expiry. */
export interface NameResolverOptions {
  /** Current time; defaults to `Date.now`. */
  now?: () => number;
}

const MAX_NAME_LENGTH = 253;
/** Resolved names kept (least recently used evicted first). */
const NAME_CACHE_ENTRIES = 10_000;
/**
 * Most characters of names and addresses kept (docs/operations.md "Memory"): 1 Mi, about 10,000
 * entries of a long name and a Solana address.
 */
const NAME_CACHE_MAX_CHARACTERS = 1024 * 1024;

function invalidName(detail: string): HttpProblem {
  return new HttpProblem(400, 'INVALID_NAME', detail);
}

/** Normalizes a `.eth`/`.sol` name or throws 400 INVALID_NAME. */
function normalizeName(value: string): { name: string; kind: NameKind } {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH)
    throw invalidName('name length must be 1-253');
  const lower = trimmed.toLowerCase();
  if (lower.endsWith('.eth')) {
    let name: string;
    try {
      name = normalize(trimmed);
    } catch {
      throw invalidName(`${trimmed} is not a valid ENS name`);
    }
    if (name.split('.').some((label) => label.length === 0))
      throw invalidName(`${trimmed} has an empty label`);
    return { name, kind: 'ens' };
  }
  if (lower.endsWith('.sol')) {
    const labels = lower.slice(0, -4).split('.');
    if (labels.length > 2 || labels.some((l) => l.length === 0 || /[\s\0/\\]/.test(l))) {
      throw invalidName(`${trimmed} is not a valid .sol name`);
    }
    return { name: lower, kind: 'sns' };
  }
  throw invalidName(`${trimmed} is neither a .eth nor a .sol name`);
}

/**
 * Builds the resolver from configuration. Without ETH_RPC_URL (SOLANA_RPC_URL) every `.eth`
 * (`.sol`) name is a 400 INVALID_NAME saying that resolution is not configured.
 */
export function createNameResolver(
  config: NameResolverConfig,
  options: NameResolverOptions = {},
): NameResolver {
  const now = options.now ?? Date.now;
  const settings = { ...NAMES_CONFIG_DEFAULTS, ...config };
  const ttlMs = settings.NAME_CACHE_TTL_SECONDS * 1000;
  const ens = config.ETH_RPC_URL
    ? createEnsLookup({
        rpcUrl: config.ETH_RPC_URL,
        universalResolver: settings.ENS_UNIVERSAL_RESOLVER as Address,
        timeoutMs: settings.NAME_RPC_TIMEOUT_MS,
      })
    : undefined;
  const sns = config.SOLANA_RPC_URL
    ? createSnsLookup({ rpcUrl: config.SOLANA_RPC_URL, timeoutMs: settings.NAME_RPC_TIMEOUT_MS })
    : undefined;
  const cache = new LRUCache<string, { address: string | null; expiresAt: number }>({
    max: NAME_CACHE_ENTRIES,
    maxSize: NAME_CACHE_MAX_CHARACTERS,
    sizeCalculation: (entry, name) => name.length + (entry.address?.length ?? 0) + 1,
  });

  async function lookup(name: string, kind: NameKind): Promise<string | null> {
    const cached = cache.get(name);
    if (cached && cached.expiresAt > now()) return cached.address;
    const lookupFn = kind === 'ens' ? ens : sns;
    if (!lookupFn)
      throw invalidName(`${kind === 'ens' ? '.eth' : '.sol'} name resolution is not configured`);
    let address: string | null;
    try {
      address = await lookupFn(name);
    } catch (err) {
      if (err instanceof RangeError) throw invalidName(err.message);
      throw new HttpProblem(
        503,
        'SERVICE_UNAVAILABLE',
        `${kind === 'ens' ? 'ENS' : 'SNS'} lookup failed`,
      );
    }
    if (ttlMs > 0) {
      cache.set(name, { address, expiresAt: now() + ttlMs });
    }
    return address;
  }

  return {
    isName(value) {
      const lower = value.trim().toLowerCase();
      return lower.endsWith('.eth') || lower.endsWith('.sol');
    },
    async resolve(value) {
      const { name, kind } = normalizeName(value);
      const address = await lookup(name, kind);
      if (!address) throw invalidName(`${name} does not resolve to an address`);
      return { name, kind, address };
    },
  };
}
