/**
 * A Sui chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_SUI_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Package ids are the ids that event types carry: the package that first published the module
 * (a Move type keeps its original package id across upgrades).
 */
import { z } from 'zod';

const suiId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Sui package id (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

/** One Sui chain as configured. */
export const SuiChainSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]')
    .describe('display name (1-64 of `a-z0-9_-`): labels in logs, metrics and `/health`'),
  network: z
    .enum(['mainnet', 'testnet'])
    .default('mainnet')
    .describe('which feed its records go to; with `domain`, the key of its cursor and lock'),
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
  pollIntervalMs: z
    .number()
    .int()
    .min(10)
    .max(600_000)
    .default(2_000)
    .describe('poll interval, milliseconds'),
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
  requestTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe('per-request timeout, milliseconds'),
});

/** One Sui chain, validated. */
export type SuiChainConfig = z.infer<typeof SuiChainSchema>;
