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
  /** Display name: labels in logs, metrics and /health. */
  name: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]'),
  /** Which feed its records go to; with `domain`, the key of its cursor and lock. */
  network: z.enum(['mainnet', 'testnet']).default('mainnet'),
  /** CCTP domain (Sui: 8). */
  domain: z.number().int().min(0).max(4_294_967_295).default(8),
  /** Sui GraphQL RPC endpoint (mainnet: https://graphql.mainnet.sui.io/graphql). */
  graphqlUrl: z.url({ protocol: /^https?$/ }),
  /** Package(s) whose `transfer::CashmereTransfer` events are read. */
  transferPackages: z.array(suiId).min(1),
  /** Circle's TokenMessengerMinter package (`deposit_for_burn::DepositForBurn`). */
  tokenMessengerMinterPackage: suiId,
  /** Circle's MessageTransmitter package (`send_message::MessageSent`, `receive_message::MessageReceived`). */
  messageTransmitterPackage: suiId,
  /** First checkpoint to read (the transfer package's publication). */
  startCheckpoint: z.number().int().min(0),
  /** Poll interval, ms. */
  pollIntervalMs: z.number().int().min(10).max(600_000).default(2_000),
  /** Most checkpoints per step. */
  maxCheckpointRange: z.number().int().min(1).max(1_000_000).default(10_000),
  /** Events per GraphQL page (the service caps it, 50 by default). */
  pageSize: z.number().int().min(1).max(50).default(50),
  /** Per-request timeout, ms. */
  requestTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});

/** One Sui chain, validated. */
export type SuiChainConfig = z.infer<typeof SuiChainSchema>;
