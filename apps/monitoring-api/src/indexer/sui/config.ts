/**
 * A Sui chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_SUI_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Package ids are the ids that event types carry: the package that first published the module
 * (a Move type keeps its original package id across upgrades). The GraphQL URL may come from
 * `INDEXER_SUI_GRAPHQL_URL_<NAME>` instead (../config.ts), as it can carry a provider key.
 *
 * Mainnet defaults (docs/indexer.md "Sui and Aptos", table of mainnet defaults):
 * - transfer package `0xdf37112aacb7d3535f7b3b754b9a7b9fa1a6b3a756288dc734522c603c6f11a4`:
 *   cashmere-prod/cashmere-agent-sdk `src/constants.ts` `SUI_CASHMERE_PACKAGE`;
 * - Circle's TokenMessengerMinter `0x2aa6c5d56376c371f88a6cc42e852824994993cb9bab8d3e6450cbe3cb32b94e`:
 *   Circle's Bridge Kit (npm `@circle-fin/bridge-kit` 1.15.1, `chains.mjs`, chain `Sui`,
 *   `cctp.contracts.v1.tokenMessenger`) and cashmere-agent-sdk `SUI_TMM_PACKAGE`;
 * - Circle's MessageTransmitter `0x08d87d37ba49e785dde270a83f8e979605b03dc552b5548f26fdf2f49bf7ed1b`:
 *   the same Bridge Kit file, `cctp.contracts.v1.messageTransmitter`.
 * A testnet chain must name them. No public source gives the transfer package's first checkpoint,
 * so `startCheckpoint` has no default.
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

const suiId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Sui package id (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

/** Sui mainnet package ids (see the module comment for their sources). */
const SUI_MAINNET_PACKAGES = {
  transferPackages: ['0xdf37112aacb7d3535f7b3b754b9a7b9fa1a6b3a756288dc734522c603c6f11a4'],
  tokenMessengerMinterPackage: '0x2aa6c5d56376c371f88a6cc42e852824994993cb9bab8d3e6450cbe3cb32b94e',
  messageTransmitterPackage: '0x08d87d37ba49e785dde270a83f8e979605b03dc552b5548f26fdf2f49bf7ed1b',
} as const;

/** One Sui chain as configured. */
const SuiChainInputSchema = z.object({
  name: chainName(false),
  network: chainNetwork,
  domain: z.number().int().min(0).max(4_294_967_295).default(8).describe('CCTP domain (Sui: 8)'),
  graphqlUrl: httpUrl.describe(
    'Sui GraphQL RPC endpoint (mainnet: `https://graphql.mainnet.sui.io/graphql`); `INDEXER_SUI_GRAPHQL_URL_<NAME>` fills it when set',
  ),
  transferPackages: z
    .array(suiId)
    .min(1)
    .optional()
    .describe(
      'package(s) whose `transfer::CashmereTransfer` events are read (1 or more; the id the type carries: the first publication); mainnet default',
    ),
  tokenMessengerMinterPackage: suiId
    .optional()
    .describe(
      "Circle's TokenMessengerMinter package (`deposit_for_burn::DepositForBurn`); mainnet default",
    ),
  messageTransmitterPackage: suiId
    .optional()
    .describe(
      "Circle's MessageTransmitter package (`send_message::MessageSent`, `receive_message::MessageReceived`); mainnet default",
    ),
  startCheckpoint: z
    .number()
    .int()
    .min(0)
    .describe("first checkpoint to read (the transfer package's publication)"),
  pollIntervalMs: pollIntervalMs(2_000),
  maxCheckpointRange: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe('most checkpoints per step'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(50)
    .describe("events per GraphQL page (Sui's page limit is 50)"),
  requestTimeoutMs: requestTimeoutMs('GraphQL'),
});

/**
 * One Sui chain, with the mainnet package ids filled in where not given. Fails validation when a
 * testnet chain does not name every package.
 */
export const SuiChainSchema = SuiChainInputSchema.transform(
  (chain, ctx) =>
    fillMainnetDefaults(chain, ctx, {
      fields: ['transferPackages', 'tokenMessengerMinterPackage', 'messageTransmitterPackage'],
      mainnet: () => SUI_MAINNET_PACKAGES,
      what: 'packages',
      label: (c) => `${c.network} Sui`,
    }) ?? z.NEVER,
);

/** One Sui chain, validated. */
export type SuiChainConfig = z.infer<typeof SuiChainSchema>;
