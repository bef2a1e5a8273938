/**
 * An Aptos chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_APTOS_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Module events have no handle, so they are read from the Aptos Indexer GraphQL API (the
 * `events` table by `indexed_type`) and each transfer's transaction from the node's REST API.
 * Both URLs may come from `INDEXER_APTOS_INDEXER_URL_<NAME>` / `INDEXER_APTOS_REST_URL_<NAME>`
 * instead (../config.ts), as they can carry a provider key.
 *
 * Mainnet defaults (docs/indexer.md "Sui and Aptos", table of mainnet defaults):
 * - transfer module `0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d`:
 *   cashmere-prod/cashmere-agent-sdk `src/constants.ts` `APTOS_TRANSFER_MODULE`;
 * - Circle's TokenMessengerMinter `0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d`
 *   and MessageTransmitter `0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772`:
 *   Circle's Bridge Kit (npm `@circle-fin/bridge-kit` 1.15.1, `chains.mjs`, chain `Aptos`,
 *   `cctp.contracts.v1.tokenMessenger` / `messageTransmitter`).
 * A testnet chain must name them. No public source gives the module's first version, so
 * `startVersion` has no default.
 */
import { z } from 'zod';

const aptosAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Aptos address (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

const httpUrl = z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ''));

/** Aptos mainnet addresses (see the module comment for their sources). */
const APTOS_MAINNET_MODULES = {
  transferModules: ['0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d'],
  tokenMessengerMinter: '0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d',
  messageTransmitter: '0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772',
} as const;

/** One Aptos chain as configured. */
const AptosChainInputSchema = z.object({
  /** Display name: labels in logs, metrics and /health, and the key of its URL variables. */
  name: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]'),
  /** Which feed its records go to; with `domain`, the key of its cursor and lock. */
  network: z.enum(['mainnet', 'testnet']).default('mainnet'),
  /** CCTP domain (Aptos: 9). */
  domain: z.number().int().min(0).max(4_294_967_295).default(9),
  /** Indexer GraphQL endpoint (mainnet: https://api.mainnet.aptoslabs.com/v1/graphql). */
  indexerUrl: httpUrl,
  /** Node REST API base, with its `/v1` (mainnet: https://api.mainnet.aptoslabs.com/v1). */
  restUrl: httpUrl,
  /** Address(es) of the `transfer` module emitting `CashmereTransfer`; mainnet default. */
  transferModules: z.array(aptosAddress).min(1).optional(),
  /** Circle's TokenMessengerMinter package (`token_messenger::DepositForBurn`); mainnet default. */
  tokenMessengerMinter: aptosAddress.optional(),
  /** Circle's MessageTransmitter package (`message_transmitter::MessageSent` / `MessageReceived`); mainnet default. */
  messageTransmitter: aptosAddress.optional(),
  /** First transaction version to read (the module's publication). */
  startVersion: z.number().int().min(0),
  /** Poll interval, ms. */
  pollIntervalMs: z.number().int().min(10).max(600_000).default(2_000),
  /** Most versions per step. */
  maxVersionRange: z.number().int().min(1).max(100_000_000).default(1_000_000),
  /** Events per Indexer page (the hosted API caps a page at 100). */
  pageSize: z.number().int().min(1).max(100).default(100),
  /** Per-request timeout, ms. */
  requestTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});

/**
 * One Aptos chain, with the mainnet addresses filled in where not given.
 * Issues: a testnet chain that does not name every address.
 */
export const AptosChainSchema = AptosChainInputSchema.transform((chain, ctx) => {
  const defaults = chain.network === 'mainnet' ? APTOS_MAINNET_MODULES : undefined;
  const transferModules = chain.transferModules ?? defaults?.transferModules;
  const tokenMessengerMinter = chain.tokenMessengerMinter ?? defaults?.tokenMessengerMinter;
  const messageTransmitter = chain.messageTransmitter ?? defaults?.messageTransmitter;
  if (!transferModules || !tokenMessengerMinter || !messageTransmitter) {
    ctx.addIssue({
      code: 'custom',
      message: `no default addresses for ${chain.network} Aptos: set transferModules, tokenMessengerMinter and messageTransmitter`,
    });
    return z.NEVER;
  }
  return {
    ...chain,
    transferModules: [...transferModules],
    tokenMessengerMinter,
    messageTransmitter,
  };
});

/** One Aptos chain, validated. */
export type AptosChainConfig = z.infer<typeof AptosChainSchema>;
