/**
 * The indexer's configuration (docs/indexer.md "Configuration"): one zod schema over the
 * environment, checked once at start-up. The chains (everything but their RPC URLs) come from
 * `INDEXER_CHAINS` (JSON) or the file named by `INDEXER_CHAINS_FILE` (a mounted ConfigMap);
 * their RPC URLs, which carry provider keys, from `INDEXER_RPC_URLS_<NAME>` variables or the JSON
 * file named by `INDEXER_RPC_URLS_FILE` (a mounted Secret). Sui and Aptos chains come from
 * `INDEXER_SUI_CHAINS` / `INDEXER_APTOS_CHAINS`, their endpoints from the entries or, from a
 * Secret, per-chain variables (`INDEXER_SUI_GRAPHQL_URL_<NAME>`, ...). A mainnet chain of a known CCTP
 * domain gets Circle's contract addresses by default (circle-contracts.ts); any other chain must
 * name them. Absent or empty chains = no chain (the process then only serves its probes).
 */
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  envInteger,
  envJson,
  envList,
  envUrl,
  parseConfig,
  serviceConfigShape,
} from '@ctss/server-kit';
import { z } from 'zod';
import { fillMainnetDefaults } from './chain-defaults.js';
import {
  chainName,
  chainNetwork,
  httpUrl,
  pollIntervalMs,
  requestTimeoutMs,
} from './chain-fields.js';
import { mainnetCircleContracts } from './circle-contracts.js';
// Sui and Aptos chains (docs/indexer.md "Sui and Aptos").
import { AptosChainSchema } from './aptos/config.js';
import { SuiChainSchema } from './sui/config.js';
import { SolanaChainConfigSchema } from './solana/config.js';

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
  .transform((value) => value.toLowerCase() as `0x${string}`);

/** A Move chain's endpoint given through its own variable (from a Secret). */
const endpointUrl = z.string().trim().pipe(httpUrl).optional();

/** One indexed EVM chain as configured (before Circle's defaults and the RPC URLs are applied). */
const ChainInputSchema = z.object({
  family: z
    .literal('evm')
    .optional()
    .describe('the chain family: EVM unless another is named (`"solana"`: see "Solana")'),
  name: chainName(true),
  network: chainNetwork,
  domain: z.number().int().min(0).max(4_294_967_295).describe('CCTP domain of the chain (uint32)'),
  rpcUrls: z
    .array(httpUrl)
    .default([])
    .describe(
      'http(s) JSON-RPC URLs, tried in order (viem `fallback`); accepted inline for local use, but RPC URLs carry provider keys, so production gives them through `INDEXER_RPC_URLS_<NAME>` or `INDEXER_RPC_URLS_FILE`',
    ),
  transferContracts: z
    .array(address)
    .min(1)
    .describe('transfer contract(s) emitting `CashmereTransfer` (1 or more)'),
  tokenMessengers: z
    .array(address)
    .min(1)
    .optional()
    .describe(
      'Circle TokenMessenger v1 and v2 (`DepositForBurn`, `MintAndWithdraw`); mainnet default by domain (below)',
    ),
  messageTransmitters: z
    .array(address)
    .min(1)
    .optional()
    .describe(
      'Circle MessageTransmitter v1 and v2 (`MessageSent`, `MessageReceived`); mainnet default by domain (below)',
    ),
  tokenMinters: z
    .array(address)
    .default([])
    .describe('Circle TokenMinter v1 and v2 (no event of it is read; recorded for operators)'),
  usdc: address
    .optional()
    .describe(
      'the USDC contract (ERC-20 `Transfer` of the deposit); mainnet default by domain (below)',
    ),
  startBlock: z
    .number()
    .int()
    .min(0)
    .describe("first block to scan (the transfer contract's deployment block)"),
  confirmations: z
    .union([z.number().int().min(0).max(10_000), z.literal('finalized')])
    .default('finalized')
    .describe(
      "depth at which a block counts as final: `finalized` (the node's tag), or a number of blocks",
    ),
  pollIntervalMs: pollIntervalMs(4_000),
  maxBlockRange: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(2_000)
    .describe(
      'largest `eth_getLogs` range, blocks (split further when the RPC says the range is too large)',
    ),
  rpcTimeoutMs: requestTimeoutMs('RPC'),
});

/**
 * One indexed EVM chain, with Circle's mainnet contracts filled in where not given (by domain,
 * circle-contracts.ts). Fails validation when a chain without known defaults (not mainnet, or a
 * domain without them) does not name its Circle contracts and USDC.
 */
export const ChainConfigSchema = ChainInputSchema.transform((chain, ctx) => {
  const filled = fillMainnetDefaults(chain, ctx, {
    fields: ['tokenMessengers', 'messageTransmitters', 'usdc'],
    mainnet: (c) => mainnetCircleContracts(c.domain),
    what: 'Circle contracts',
    label: (c) => `${c.network} domain ${c.domain}`,
  });
  return filled === undefined ? z.NEVER : { ...filled, family: 'evm' as const };
});

/** One indexed chain, validated. */
export type ChainConfig = z.infer<typeof ChainConfigSchema>;

/** One indexed chain of any family, told apart by `family` (absent = `evm`). */
const IndexedChainSchema = z.discriminatedUnion('family', [
  ChainConfigSchema,
  SolanaChainConfigSchema,
]);

const chainsJson = envJson(z.array(IndexedChainSchema), 'a JSON array of chains')
  .refine((chains) => new Set(chains.map((c) => c.name)).size === chains.length, {
    message: 'chain names must be unique',
  })
  .refine(
    (chains) => new Set(chains.map((c) => `${c.network}:${c.domain}`)).size === chains.length,
    { message: 'one chain per network and domain' },
  );

/**
 * The indexer's environment schema (files already read, see {@link loadIndexerConfig}). Each
 * `.describe()` text is the variable's line in docs/indexer.md "Configuration" (generated by
 * scripts/env-tables.mjs).
 */
export const IndexerConfigSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .describe("PostgreSQL primary (migrated by the API's migration job)"),
  INDEXER_CHAINS: chainsJson
    .default([])
    .meta({ type: 'array', items: { type: 'object' } })
    .describe(
      'JSON array of chains (below, without RPC URLs); or `INDEXER_CHAINS_FILE`; none = the process only serves its probes',
    ),
  INDEXER_SUI_CHAINS: envJson(z.array(SuiChainSchema), 'a JSON array of Sui chains')
    .default([])
    .meta({ type: 'array', items: { type: 'object' } })
    .describe('JSON array of Sui chains (docs/indexer.md "Sui and Aptos"); none by default'),
  INDEXER_APTOS_CHAINS: envJson(z.array(AptosChainSchema), 'a JSON array of Aptos chains')
    .default([])
    .meta({ type: 'array', items: { type: 'object' } })
    .describe('JSON array of Aptos chains (docs/indexer.md "Sui and Aptos"); none by default'),
  IRIS_URL: envUrl()
    .default('https://iris-api.circle.com')
    .transform((v) => v.replace(/\/+$/, ''))
    .meta({ type: 'string', format: 'uri' })
    .describe('Circle Iris API base URL (sandbox: `https://iris-api-sandbox.circle.com`)'),
  IRIS_RATE_PER_SECOND: envInteger(1, 35)
    .default(10)
    .describe(
      "Iris requests per second for all indexer processes together (shared through PostgreSQL), at most Circle's published 35",
    ),
  ATTESTATION_TIMEOUT_SECONDS: envInteger(60, 7 * 86_400)
    .default(3_600)
    .describe('seconds after which a transfer without attestation gets `has_attestation_error`'),
  IRIS_RECHECK_SECONDS: envInteger(1, 3_600)
    .default(5)
    .describe("seconds between the first Iris checks of one transfer (the backoff's base)"),
  IRIS_MAX_BACKOFF_SECONDS: envInteger(1, 86_400)
    .default(120)
    .describe(
      'longest wait between two Iris checks of one transfer before the give-up age, seconds',
    ),
  ATTESTATION_GIVE_UP_SECONDS: envInteger(60, 90 * 86_400)
    .default(86_400)
    .describe(
      'age after which an unattested transfer is checked only every `ATTESTATION_GIVE_UP_RECHECK_SECONDS`, seconds',
    ),
  ATTESTATION_GIVE_UP_RECHECK_SECONDS: envInteger(60, 7 * 86_400)
    .default(3_600)
    .describe('seconds between two Iris checks of a transfer past the give-up age'),
  PORT: envInteger(0, 65_535)
    .default(3_010)
    .describe(
      'port of `/health` (chains, role writer/standby, last error), `/ready` (database) and `/metrics`',
    ),
  LOG_LEVEL: serviceConfigShape.LOG_LEVEL,
});

/**
 * The variables {@link loadIndexerConfig} reads before the schema (files and per-chain RPC
 * URLs), keyed by name (`<NAME>`: a chain's name upper-cased, `-` as `_`); described here so the
 * configuration table lists them too.
 */
export const indexerPreSchemaVariables = {
  INDEXER_CHAINS_FILE: z
    .string()
    .optional()
    .describe(
      'path of a file holding the `INDEXER_CHAINS` JSON (a mounted ConfigMap); instead of it',
    ),
  'INDEXER_RPC_URLS_<NAME>': envList()
    .pipe(z.array(httpUrl).min(1))
    .optional()
    .describe('comma-separated http(s) RPC URLs of the chain named NAME (from a Secret)'),
  INDEXER_RPC_URLS_FILE: z
    .string()
    .optional()
    .describe(
      "path of a JSON object chain name -> RPC URLs (a mounted Secret); a variable above wins, then the chain's own `rpcUrls`",
    ),
  'INDEXER_SUI_GRAPHQL_URL_<NAME>': endpointUrl.describe(
    'Sui GraphQL URL of the `INDEXER_SUI_CHAINS` chain named NAME (from a Secret); replaces its `graphqlUrl`',
  ),
  'INDEXER_APTOS_INDEXER_URL_<NAME>': endpointUrl.describe(
    'Aptos Indexer GraphQL URL of the `INDEXER_APTOS_CHAINS` chain named NAME (from a Secret); replaces its `indexerUrl`',
  ),
  'INDEXER_APTOS_REST_URL_<NAME>': endpointUrl.describe(
    'Aptos node REST URL (with `/v1`) of the `INDEXER_APTOS_CHAINS` chain named NAME (from a Secret); replaces its `restUrl`',
  ),
};

/**
 * The Move chains' endpoint fields that a per-chain variable fills (docs/indexer.md "Sui and
 * Aptos"): chains variable -> entry field -> the variable's prefix (`<prefix><NAME>`).
 */
const moveEndpointVariables = {
  INDEXER_SUI_CHAINS: { graphqlUrl: 'INDEXER_SUI_GRAPHQL_URL_' },
  INDEXER_APTOS_CHAINS: {
    indexerUrl: 'INDEXER_APTOS_INDEXER_URL_',
    restUrl: 'INDEXER_APTOS_REST_URL_',
  },
} as const;

/** The indexer's configuration, validated. */
export type IndexerConfig = z.infer<typeof IndexerConfigSchema>;

/** A chain's own variable: `prefix` + its name upper-cased, `-` as `_`. */
function chainVariable(prefix: string, name: string): string {
  return `${prefix}${name.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * Fills the endpoint fields of each entry of a Move chains variable from the entry's own
 * variables (`INDEXER_SUI_GRAPHQL_URL_<NAME>`, ...), before the schema checks the entries.
 * Returns the JSON to parse (unchanged when it is not an array of objects: the schema then names
 * the problem). Pushes an issue for a variable that is not an http(s) URL and for an entry
 * without the endpoint either way; values are never echoed.
 */
function withEndpointVariables(
  variable: keyof typeof moveEndpointVariables,
  text: string | undefined,
  env: Record<string, string | undefined>,
  issues: string[],
): string | undefined {
  if (!text) return text;
  let entries: unknown;
  try {
    entries = JSON.parse(text) as unknown;
  } catch {
    return text;
  }
  if (!Array.isArray(entries)) return text;
  const fields: Record<string, string> = moveEndpointVariables[variable];
  for (const entry of entries as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const chain = entry as Record<string, unknown>;
    if (typeof chain.name !== 'string') continue;
    for (const [field, prefix] of Object.entries(fields)) {
      const name = chainVariable(prefix, chain.name);
      const value = env[name];
      if (value) {
        if (endpointUrl.safeParse(value).success) chain[field] = value.trim();
        else issues.push(`${name}: must be an http(s) URL`);
      } else if (chain[field] === undefined) {
        issues.push(
          `${name}: no ${field} for ${variable} chain ${chain.name} (set it, or the entry's ${field})`,
        );
      }
    }
  }
  return JSON.stringify(entries);
}

const rpcFileSchema = z.record(z.string(), z.array(httpUrl).min(1));

const readText = (variable: string, path: string, issues: string[]): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    issues.push(
      `${variable}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return undefined;
  }
};

/**
 * Validates the environment once (empty variables count as absent): reads `INDEXER_CHAINS_FILE`
 * in place of `INDEXER_CHAINS`, then gives each chain its RPC URLs: `INDEXER_RPC_URLS_<NAME>`
 * (comma-separated), else its entry in the `INDEXER_RPC_URLS_FILE` JSON object (name -> URLs),
 * else its own `rpcUrls`; and each Sui / Aptos chain its endpoints: `INDEXER_SUI_GRAPHQL_URL_<NAME>`,
 * `INDEXER_APTOS_INDEXER_URL_<NAME>`, `INDEXER_APTOS_REST_URL_<NAME>` in place of the entry's own
 * `graphqlUrl`, `indexerUrl`, `restUrl`.
 *
 * @throws ConfigError (server-kit) naming every bad variable, and the missing endpoint variable of
 *   a chain without one; values are not echoed (RPC and GraphQL URLs carry keys).
 */
export function loadIndexerConfig(
  env: Record<string, string | undefined> = process.env,
): IndexerConfig {
  const issues: string[] = [];
  const source = { ...env };
  if (env.INDEXER_CHAINS_FILE) {
    if (env.INDEXER_CHAINS) issues.push('INDEXER_CHAINS_FILE: set it or INDEXER_CHAINS, not both');
    source.INDEXER_CHAINS = readText('INDEXER_CHAINS_FILE', env.INDEXER_CHAINS_FILE, issues);
  }
  let fromFile: Record<string, string[]> = {};
  if (env.INDEXER_RPC_URLS_FILE) {
    const text = readText('INDEXER_RPC_URLS_FILE', env.INDEXER_RPC_URLS_FILE, issues);
    if (text !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = undefined;
      }
      const result = rpcFileSchema.safeParse(parsed);
      if (result.success) fromFile = result.data;
      else
        issues.push('INDEXER_RPC_URLS_FILE: must be a JSON object of chain name -> [http(s) URLs]');
    }
  }
  for (const variable of ['INDEXER_SUI_CHAINS', 'INDEXER_APTOS_CHAINS'] as const) {
    source[variable] = withEndpointVariables(variable, env[variable], env, issues);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  const config = parseConfig(IndexerConfigSchema, source);
  for (const chain of config.INDEXER_CHAINS) {
    const variable = chainVariable('INDEXER_RPC_URLS_', chain.name);
    const value = env[variable];
    if (value) {
      const result = indexerPreSchemaVariables['INDEXER_RPC_URLS_<NAME>'].safeParse(value);
      if (result.success) chain.rpcUrls = result.data ?? [];
      else issues.push(`${variable}: must be comma-separated http(s) URLs`);
    } else if (fromFile[chain.name]) {
      chain.rpcUrls = fromFile[chain.name]!;
    }
    if (chain.rpcUrls.length === 0) {
      issues.push(`${variable}: no RPC URL for chain ${chain.name} (or INDEXER_RPC_URLS_FILE)`);
    }
  }
  // One chain per network and domain, one name per chain, across every family.
  const all = [
    ...config.INDEXER_CHAINS,
    ...config.INDEXER_SUI_CHAINS,
    ...config.INDEXER_APTOS_CHAINS,
  ];
  if (new Set(all.map((c) => `${c.network}:${c.domain}`)).size !== all.length) {
    issues.push('INDEXER_SUI_CHAINS / INDEXER_APTOS_CHAINS: one chain per network and domain');
  }
  if (new Set(all.map((c) => c.name)).size !== all.length) {
    issues.push('INDEXER_SUI_CHAINS / INDEXER_APTOS_CHAINS: chain names must be unique');
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}
