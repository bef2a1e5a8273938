/**
 * The indexer's configuration (docs/indexer.md "Configuration"): one zod schema over the
 * environment, checked once at start-up. `INDEXER_CHAINS` is a JSON array of chains; absent or
 * empty = no chain (the process then only serves its health endpoints).
 */
import { envInteger, envJson, envUrl, parseConfig, serviceConfigShape } from '@ctss/server-kit';
import { z } from 'zod';

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
  .transform((value) => value.toLowerCase() as `0x${string}`);

/** One indexed EVM chain. */
export const ChainConfigSchema = z.object({
  /** Unique name, the key of its cursor and advisory lock (e.g. `base`). */
  name: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]'),
  /** Which feed its records go to. */
  network: z.enum(['mainnet', 'testnet']).default('mainnet'),
  /** CCTP domain of the chain (uint32). */
  domain: z.number().int().min(0).max(4_294_967_295),
  /** JSON-RPC URLs, tried in order (viem `fallback`). */
  rpcUrls: z.array(z.url({ protocol: /^https?$/ })).min(1),
  /** Transfer contract(s) emitting `CashmereTransfer`. */
  transferContracts: z.array(address).min(1),
  /** MessageTransmitter v1/v2 addresses whose `MessageReceived` completes records (optional). */
  messageTransmitters: z.array(address).default([]),
  /** First block to scan (the transfer contract's deployment block). */
  startBlock: z.number().int().min(0),
  /** Depth at which a block counts as final: a number of confirmations, or `finalized`. */
  confirmations: z.union([z.number().int().min(0).max(10_000), z.literal('finalized')]).default(12),
  /** Poll interval, ms. */
  pollIntervalMs: z.number().int().min(10).max(600_000).default(4_000),
  /** Largest `eth_getLogs` range, blocks (split further when the RPC says the range is too large). */
  maxBlockRange: z.number().int().min(1).max(100_000).default(2_000),
  /** Per-request RPC timeout, ms. */
  rpcTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});

/** One indexed chain, validated. */
export type ChainConfig = z.infer<typeof ChainConfigSchema>;

const chainsEnv = envJson(z.array(ChainConfigSchema), 'a JSON array of chains').refine(
  (chains) => new Set(chains.map((c) => c.name)).size === chains.length,
  {
    message: 'chain names must be unique',
  },
);

/** The indexer's environment schema. */
export const IndexerConfigSchema = z.object({
  /** PostgreSQL primary (required: the indexer writes). */
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
  /** Chains to index, JSON (see {@link ChainConfigSchema}). */
  INDEXER_CHAINS: chainsEnv.default([]),
  /** Circle Iris API base URL. */
  IRIS_URL: envUrl()
    .default('https://iris-api.circle.com')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Iris requests per second, at most 9 (Circle asks for fewer than 10). */
  IRIS_RATE_PER_SECOND: envInteger(1, 9).default(5),
  /** Seconds after which a transfer without attestation gets `has_attestation_error`. */
  ATTESTATION_TIMEOUT_SECONDS: envInteger(60, 7 * 86_400).default(3_600),
  /** Seconds between two Iris checks of the same transfer. */
  IRIS_RECHECK_SECONDS: envInteger(1, 3_600).default(10),
  /** Port of /health, /ready, /metrics. */
  PORT: envInteger(0, 65_535).default(3_010),
  LOG_LEVEL: serviceConfigShape.LOG_LEVEL,
});

/** The indexer's configuration, validated. */
export type IndexerConfig = z.infer<typeof IndexerConfigSchema>;

/**
 * Validates the environment once (empty variables count as absent).
 *
 * @throws ConfigError (server-kit) naming every bad variable; values are not echoed (RPC URLs
 *   may carry keys).
 */
export function loadIndexerConfig(
  env: Record<string, string | undefined> = process.env,
): IndexerConfig {
  return parseConfig(IndexerConfigSchema, env);
}
