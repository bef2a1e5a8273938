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
import { fillMainnetDefaults } from '../chain-defaults.js';
import {
  chainName,
  chainNetwork,
  httpUrl,
  pollIntervalMs,
  requestTimeoutMs,
} from '../chain-fields.js';

const aptosAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Aptos address (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

/** An http(s) base URL, its trailing slashes dropped. */
const baseUrl = httpUrl
  .transform((v) => v.replace(/\/+$/, ''))
  .meta({ type: 'string', format: 'uri' });

/** Aptos mainnet addresses (see the module comment for their sources). */
const APTOS_MAINNET_MODULES = {
  transferModules: ['0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d'],
  tokenMessengerMinter: '0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d',
  messageTransmitter: '0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772',
} as const;

/** One Aptos chain as configured. */
const AptosChainInputSchema = z.object({
  name: chainName(false),
  network: chainNetwork,
  domain: z.number().int().min(0).max(4_294_967_295).default(9).describe('CCTP domain (Aptos: 9)'),
  indexerUrl: baseUrl.describe(
    'Indexer GraphQL endpoint (mainnet: `https://api.mainnet.aptoslabs.com/v1/graphql`); `INDEXER_APTOS_INDEXER_URL_<NAME>` fills it when set',
  ),
  restUrl: baseUrl.describe(
    'node REST API base, with its `/v1` (mainnet: `https://api.mainnet.aptoslabs.com/v1`); `INDEXER_APTOS_REST_URL_<NAME>` fills it when set',
  ),
  transferModules: z
    .array(aptosAddress)
    .min(1)
    .optional()
    .describe(
      'address(es) of the `transfer` module emitting `CashmereTransfer` (1 or more); mainnet default',
    ),
  tokenMessengerMinter: aptosAddress
    .optional()
    .describe(
      "Circle's TokenMessengerMinter package (`token_messenger::DepositForBurn`); mainnet default",
    ),
  messageTransmitter: aptosAddress
    .optional()
    .describe(
      "Circle's MessageTransmitter package (`message_transmitter::MessageSent` / `MessageReceived`); mainnet default",
    ),
  startVersion: z
    .number()
    .int()
    .min(0)
    .describe("first transaction version to read (the module's publication)"),
  pollIntervalMs: pollIntervalMs(2_000),
  maxVersionRange: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .default(1_000_000)
    .describe('most versions per step'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(100)
    .describe('events per Indexer page (the hosted API caps a page at 100)'),
  requestTimeoutMs: requestTimeoutMs('GraphQL and REST'),
});

/**
 * One Aptos chain, with the mainnet addresses filled in where not given. Fails validation when a
 * testnet chain does not name every address.
 */
export const AptosChainSchema = AptosChainInputSchema.transform(
  (chain, ctx) =>
    fillMainnetDefaults(chain, ctx, {
      fields: ['transferModules', 'tokenMessengerMinter', 'messageTransmitter'],
      mainnet: () => APTOS_MAINNET_MODULES,
      what: 'addresses',
      label: (c) => `${c.network} Aptos`,
    }) ?? z.NEVER,
);

/** One Aptos chain, validated. */
export type AptosChainConfig = z.infer<typeof AptosChainSchema>;
