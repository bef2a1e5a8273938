/**
 * A Sui chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_SUI_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Package ids are the ids that event types carry: the package that first published the module
 * (a Move type keeps its original package id across upgrades).
 */
import { z } from 'zod';
import { chainName, chainNetwork, pollIntervalMs, requestTimeoutMs } from '../chain-fields.js';

const suiId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Sui package id (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

/** One Sui chain as configured. */
export const SuiChainSchema = z.object({
  name: chainName(false),
  network: chainNetwork,
  domain: z.number().int().min(0).max(4_294_967_295).default(8).describe('CCTP domain (Sui: 8)'),
  graphqlUrl: z
    .url({ protocol: /^https?$/ })
    .describe('Sui GraphQL RPC endpoint (mainnet: `https://graphql.mainnet.sui.io/graphql`)'),
  transferPackages: z
    .array(suiId)
    .min(1)
    .describe(
      'package(s) whose `transfer::CashmereTransfer` events are read (1 or more; the id the type carries: the first publication)',
    ),
  tokenMessengerMinterPackage: suiId.describe(
    "Circle's TokenMessengerMinter package (`deposit_for_burn::DepositForBurn`); no default: from Circle's contract address page",
  ),
  messageTransmitterPackage: suiId.describe(
    "Circle's MessageTransmitter package (`send_message::MessageSent`, `receive_message::MessageReceived`); no default",
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

/** One Sui chain, validated. */
export type SuiChainConfig = z.infer<typeof SuiChainSchema>;
