/**
 * An Aptos chain of the indexer (docs/indexer.md "Sui and Aptos"), one entry of
 * `INDEXER_APTOS_CHAINS` (JSON), validated once at start-up with the indexer's configuration.
 * Module events have no handle, so they are read from the Aptos Indexer GraphQL API (the
 * `events` table by `indexed_type`) and each transfer's transaction from the node's REST API.
 */
import { z } from 'zod';
import { chainName, chainNetwork, pollIntervalMs, requestTimeoutMs } from '../chain-fields.js';

const aptosAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed Aptos address (up to 32 bytes)')
  .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .transform((v) => v.replace(/\/+$/, ''))
  .meta({ type: 'string', format: 'uri' });

/** One Aptos chain as configured. */
export const AptosChainSchema = z.object({
  name: chainName(false),
  network: chainNetwork,
  domain: z.number().int().min(0).max(4_294_967_295).default(9).describe('CCTP domain (Aptos: 9)'),
  indexerUrl: httpUrl.describe(
    'Indexer GraphQL endpoint (mainnet: `https://api.mainnet.aptoslabs.com/v1/graphql`)',
  ),
  restUrl: httpUrl.describe(
    'node REST API base, with its `/v1` (mainnet: `https://api.mainnet.aptoslabs.com/v1`)',
  ),
  transferModules: z
    .array(aptosAddress)
    .min(1)
    .describe('address(es) of the `transfer` module emitting `CashmereTransfer` (1 or more)'),
  tokenMessengerMinter: aptosAddress.describe(
    "Circle's TokenMessengerMinter package (`token_messenger::DepositForBurn`); no default: from Circle's contract address page",
  ),
  messageTransmitter: aptosAddress.describe(
    "Circle's MessageTransmitter package (`message_transmitter::MessageSent` / `MessageReceived`); no default",
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

/** One Aptos chain, validated. */
export type AptosChainConfig = z.infer<typeof AptosChainSchema>;
