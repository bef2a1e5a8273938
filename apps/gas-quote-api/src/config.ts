/**
 * The Gas Quote API configuration: one zod schema over the environment, parsed once at start-up
 * (server-kit `parseConfig`): absent = documented default, present but invalid = ConfigError
 * listing every bad variable. The full reference is in README.md.
 */
import { DEFAULT_CHAINS, z, type ChainInfo } from '@ctss/domain-types';
import {
  envBoolean,
  envInteger,
  envJson,
  envUrl,
  parseConfig,
  serviceConfigShape,
} from '@ctss/server-kit';
import type { QuotePacking } from '@ctss/signing';
import { DEFAULT_COINGECKO_IDS, DEFAULT_PYTH_FEED_IDS } from './price-source-ids.js';

/** Default adjustment factor on the redeem gas cost, basis points (1.2x covers gas spikes between refreshes). */
export const DEFAULT_FEE_ADJUSTMENT_BPS = 12_000n;

const int = envInteger;
const bps = z
  .string()
  .regex(/^[0-9]{1,7}$/, 'must be an integer number of basis points')
  .transform(BigInt);

const symbolMap = envJson(
  z.record(z.string().regex(/^[A-Z0-9]+$/), z.string().min(1)),
  'a JSON object',
);

const Fixed = z.object({
  ...serviceConfigShape,
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  PORT: int(0, 65_535).default(3001),
  FEEDER_PORT: int(0, 65_535).default(3002),
  REDIS_PREFIX: z.string().min(1).default('gas:'),
  SIGNER_ECDSA_PRIVATE_KEY: z.string().optional(),
  SIGNER_ED25519_PRIVATE_KEY: z.string().optional(),
  PRICE_SOURCE: z.enum(['auto', 'live', 'snapshot']).default('auto'),
  PRICE_MAX_AGE_SECONDS: int(1, 86_400).default(120),
  FEEDER_INTERVAL_SECONDS: int(1, 3600).default(15),
  FEEDER_IN_PROCESS: envBoolean().optional(),
  UPSTREAM_TIMEOUT_MS: int(100, 60_000).default(5000),
  PYTH_HERMES_URL: envUrl().default('https://hermes.pyth.network'),
  PYTH_MAX_CONFIDENCE_BPS: bps.default(200n),
  PYTH_FEED_IDS: symbolMap.optional(),
  PRICE_FALLBACK_URL: envUrl().default('https://api.coingecko.com'),
  PRICE_FALLBACK_IDS: symbolMap.optional(),
  FEE_ADJUSTMENT_BPS: bps.default(DEFAULT_FEE_ADJUSTMENT_BPS),
  GAS_PRICE_MULTIPLIER_BPS: bps.default(10_000n),
  EVM_PRIORITY_FEE_PERCENTILE: int(0, 100).default(50),
  SOLANA_PRIORITY_FEE_PERCENTILE: int(0, 100).default(75),
  WS_MAX_BUFFERED_BYTES: int(1024, 64 * 1024 * 1024).default(1024 * 1024),
  WS_PING_INTERVAL_SECONDS: int(1, 3600).default(30),
  /** Open WebSocket connections allowed per client address; more are refused with 429. */
  WS_MAX_CONNECTIONS_PER_IP: int(1, 1_000_000).default(20),
});

/** Per-domain variables: `<PREFIX><DOMAIN>` where DOMAIN is the id (`0`) or the chain key (`ETHEREUM`). */
const PER_DOMAIN = {
  RPC_URL_: envUrl(),
  QUOTE_PACKING_: z.enum(['spec', 'compact']),
  REDEEM_GAS_: z
    .string()
    .regex(/^[1-9][0-9]{0,11}$/, 'must be a positive integer of gas units')
    .transform(BigInt),
  FEE_ADJUSTMENT_BPS_: bps,
  TRANSFER_CONTRACT_: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte contract address'),
} as const;
type PerDomainKey = keyof typeof PER_DOMAIN;

/** The validated configuration. Per-domain maps are keyed by CCTP domain id. */
export interface GasQuoteConfig extends Omit<
  z.output<typeof Fixed>,
  'PYTH_FEED_IDS' | 'PRICE_FALLBACK_IDS'
> {
  /** Chain JSON-RPC (REST for Aptos) URL per domain. */
  readonly rpcUrls: ReadonlyMap<number, string>;
  /** ECDSA packing per origin domain; `spec` when absent. */
  readonly quotePacking: ReadonlyMap<number, QuotePacking>;
  /** Redeem gas override per destination domain. */
  readonly redeemGas: ReadonlyMap<number, bigint>;
  /** Adjustment factor override per destination domain, basis points. */
  readonly feeAdjustmentBps: ReadonlyMap<number, bigint>;
  /** CashmereCCTP transfer contract per EVM origin domain, whose `state().feeBP` the feeder reads. */
  readonly transferContracts: ReadonlyMap<number, `0x${string}`>;
  /** Pyth feed id per native symbol (defaults merged with PYTH_FEED_IDS). */
  readonly pythFeedIds: Readonly<Record<string, string>>;
  /** Fallback price API coin id per native symbol (defaults merged with PRICE_FALLBACK_IDS). */
  readonly fallbackCoinIds: Readonly<Record<string, string>>;
  /** Whether prices come from the bundled snapshot (no RPC URLs) or live sources. */
  readonly priceSource: 'live' | 'snapshot';
  /** Whether the API process runs the feeder itself. */
  readonly feederInProcess: boolean;
}

function resolveDomain(suffix: string, chains: readonly ChainInfo[]): number | undefined {
  if (/^[0-9]+$/.test(suffix)) return chains.find((c) => c.domain === Number(suffix))?.domain;
  return chains.find((c) => c.key.toUpperCase() === suffix)?.domain;
}

/** Builds the configuration schema for the served `chains` (default: the registry defaults). */
function configSchema(chains: readonly ChainInfo[] = DEFAULT_CHAINS) {
  return z.record(z.string(), z.string()).transform((raw, ctx): GasQuoteConfig => {
    // Fixed and per-domain variables are checked together, so one start-up lists every problem.
    const fixedResult = Fixed.safeParse(raw);
    if (!fixedResult.success) {
      for (const issue of fixedResult.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
    const maps: Record<PerDomainKey, Map<number, unknown>> = {
      RPC_URL_: new Map(),
      QUOTE_PACKING_: new Map(),
      REDEEM_GAS_: new Map(),
      FEE_ADJUSTMENT_BPS_: new Map(),
      TRANSFER_CONTRACT_: new Map(),
    };
    for (const [name, value] of Object.entries(raw)) {
      const prefix = (Object.keys(PER_DOMAIN) as PerDomainKey[]).find((p) => name.startsWith(p));
      if (!prefix) continue;
      const domain = resolveDomain(name.slice(prefix.length), chains);
      if (domain === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'unknown domain (use the domain id or the chain key, e.g. 0 or ETHEREUM)',
        });
        continue;
      }
      const parsed = PER_DOMAIN[prefix].safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: parsed.error.issues[0]?.message ?? 'invalid',
        });
      } else if (maps[prefix].has(domain)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `domain ${domain} is configured twice`,
        });
      } else {
        maps[prefix].set(domain, parsed.data);
      }
    }
    if (!fixedResult.success) return z.NEVER;
    const env = fixedResult.data;
    const production = env.NODE_ENV === 'production';
    if (production && !env.SIGNER_ECDSA_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SIGNER_ECDSA_PRIVATE_KEY'],
        message: 'required when NODE_ENV=production',
      });
    }
    if (production && !env.SIGNER_ED25519_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SIGNER_ED25519_PRIVATE_KEY'],
        message: 'required when NODE_ENV=production',
      });
    }
    const rpcUrls = maps.RPC_URL_ as Map<number, string>;
    const transferContracts = maps.TRANSFER_CONTRACT_ as Map<number, `0x${string}`>;
    for (const domain of transferContracts.keys()) {
      const name = `TRANSFER_CONTRACT_${domain}`;
      if (chains.find((c) => c.domain === domain)?.vm !== 'evm')
        ctx.addIssue({ code: 'custom', path: [name], message: 'not an EVM domain' });
      else if (!rpcUrls.has(domain))
        ctx.addIssue({ code: 'custom', path: [name], message: `needs RPC_URL_${domain}` });
    }
    let priceSource: 'live' | 'snapshot' =
      env.PRICE_SOURCE === 'snapshot' || (env.PRICE_SOURCE === 'auto' && rpcUrls.size === 0)
        ? 'snapshot'
        : 'live';
    if (production && env.PRICE_SOURCE === 'auto' && rpcUrls.size === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['RPC_URL_<DOMAIN>'],
        message: 'production needs chain RPC URLs (or PRICE_SOURCE=snapshot explicitly)',
      });
    }
    if (env.PRICE_SOURCE === 'live' && rpcUrls.size === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['PRICE_SOURCE'],
        message: 'live needs at least one RPC_URL_<DOMAIN>',
      });
      priceSource = 'snapshot';
    }
    // Fixed strips every other variable, so nothing else from the environment enters the config.
    const { PYTH_FEED_IDS, PRICE_FALLBACK_IDS, ...fixed } = env;
    return {
      ...fixed,
      rpcUrls,
      quotePacking: maps.QUOTE_PACKING_ as Map<number, QuotePacking>,
      redeemGas: maps.REDEEM_GAS_ as Map<number, bigint>,
      feeAdjustmentBps: maps.FEE_ADJUSTMENT_BPS_ as Map<number, bigint>,
      transferContracts,
      pythFeedIds: { ...DEFAULT_PYTH_FEED_IDS, ...PYTH_FEED_IDS },
      fallbackCoinIds: { ...DEFAULT_COINGECKO_IDS, ...PRICE_FALLBACK_IDS },
      priceSource,
      // Without Redis the store is per process, so the process must feed itself.
      feederInProcess: env.FEEDER_IN_PROCESS ?? (priceSource === 'snapshot' || !env.REDIS_URL),
    };
  });
}

/**
 * Parses the environment into a {@link GasQuoteConfig}.
 * @throws ConfigError (server-kit) naming every invalid variable; values are never echoed.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  chains?: readonly ChainInfo[],
): GasQuoteConfig {
  return parseConfig(configSchema(chains), env);
}
