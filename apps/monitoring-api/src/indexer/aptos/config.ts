/**
 * An Aptos chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_APTOS_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Module events have no handle, so they are read from the Aptos Indexer GraphQL API (the
 * `events` table by `indexed_type`) and each transfer's transaction from the node's REST API.
 */
import { z } from 'zod';

const aptosAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Aptos address (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

const httpUrl = z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ''));

/** One Aptos chain as configured. */
export const AptosChainSchema = z.object({
  /** Display name: labels in logs, metrics and /health. */
  name: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]'),
  /** Which feed its records go to; with `domain`, the key of its cursor and lock. */
  network: z.enum(['mainnet', 'testnet']).default('mainnet'),
  /** CCTP domain (Aptos: 9). */
  domain: z.number().int().min(0).max(4_294_967_295).default(9),
  /** Indexer GraphQL endpoint (mainnet: https://api.mainnet.aptoslabs.com/v1/graphql). */
  indexerUrl: httpUrl,
  /** Node REST API base, with its `/v1` (mainnet: https://api.mainnet.aptoslabs.com/v1). */
  restUrl: httpUrl,
  /** Address(es) of the `transfer` module emitting `CashmereTransfer`. */
  transferModules: z.array(aptosAddress).min(1),
  /** Circle's TokenMessengerMinter package (`token_messenger::DepositForBurn`). */
  tokenMessengerMinter: aptosAddress,
  /** Circle's MessageTransmitter package (`message_transmitter::MessageSent` / `MessageReceived`). */
  messageTransmitter: aptosAddress,
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

/** One Aptos chain, validated. */
export type AptosChainConfig = z.infer<typeof AptosChainSchema>;
