/**
 * The fields every chain entry of the indexer's configuration has alike (EVM and Solana
 * `INDEXER_CHAINS` entries, `INDEXER_SUI_CHAINS`, `INDEXER_APTOS_CHAINS`), each described once
 * for the generated field tables of docs/indexer.md "Configuration", and the http(s) URL of
 * every endpoint they and their variables name.
 */
import { TransferNetwork } from '@ctss/domain-types';
import { z } from 'zod';

/** An http(s) URL (an RPC, GraphQL or REST endpoint; shown as `URL` in the field tables). */
export const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * A chain's display name; `withRpcVariable`: the chain's RPC URLs may also come from
 * `INDEXER_RPC_URLS_<NAME>` (EVM and Solana).
 */
export const chainName = (withRpcVariable: boolean) =>
  z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 of [a-z0-9_-]')
    .describe(
      withRpcVariable
        ? 'display name (1-64 of `a-z0-9_-`): labels in logs, metrics and `/health`, and the `<NAME>` of its RPC URL variable'
        : 'display name (1-64 of `a-z0-9_-`): labels in logs, metrics and `/health`',
    );

/** Which feed a chain's records go to (default `mainnet`). */
export const chainNetwork = TransferNetwork.default('mainnet').describe(
  'which feed its records go to (Solana devnet: `testnet`); with `domain`, the key of its cursor and lock',
);

/** A chain's poll interval, milliseconds (10-600000), `defaultMs` when absent. */
export const pollIntervalMs = (defaultMs: number) =>
  z.number().int().min(10).max(600_000).default(defaultMs).describe('poll interval, milliseconds');

/** A per-request timeout, milliseconds (100-120000, default 10000); `of`: what is timed. */
export const requestTimeoutMs = (of: 'RPC' | 'GraphQL' | 'GraphQL and REST') =>
  z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe(`per-request ${of} timeout, milliseconds`);
