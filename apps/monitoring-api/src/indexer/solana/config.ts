/**
 * Configuration of an indexed Solana cluster (docs/indexer.md "Solana"): an `INDEXER_CHAINS`
 * entry with `"family": "solana"`, validated at start-up with the rest of the indexer's
 * configuration (../config.ts). Program addresses default to mainnet's: the transfer program
 * `5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM` (cashmere-prod/contracts-prod
 * `solana/programs/cashmere_cctp/src/lib.rs` `declare_id!`, and cashmere-prod/cashmere-agent-sdk
 * `src/constants.ts` `SOLANA_CASHMERE_PROGRAM_ID`) and Circle's MessageTransmitter and
 * TokenMessengerMinter v1 and v2 (the same file, and circlefin/solana-cctp-contracts
 * `Anchor.toml`). A testnet cluster must name its programs.
 */
import { isAddress } from '@solana/kit';
import { z } from 'zod';
import { fillMainnetDefaults } from '../chain-defaults.js';
import {
  chainName,
  chainNetwork,
  httpUrl,
  pollIntervalMs,
  requestTimeoutMs,
} from '../chain-fields.js';

const base58Address = z
  .string()
  .refine((value): boolean => isAddress(value), 'must be a base58 Solana address (32 bytes)');

/** Mainnet program addresses (see the module comment for their sources). */
const MAINNET_PROGRAMS = {
  transferProgram: '5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM',
  messageTransmitterV1: 'CCTPmbSD7gX1bxKPAmg77w8oFzNFpaQiQUWD43TKaecd',
  tokenMessengerMinterV1: 'CCTPiPYPc6AsJuwueEnWgSgucamXDZwBd53dQ11YiKX3',
  messageTransmitterV2: 'CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC',
  tokenMessengerMinterV2: 'CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe',
} as const;

/** One Solana cluster as configured. */
const SolanaChainInputSchema = z.object({
  family: z
    .literal('solana')
    .describe('`"solana"` (required: an entry without it is an EVM chain)'),
  name: chainName(true),
  network: chainNetwork,
  domain: z
    .literal(5)
    .default(5)
    .describe('CCTP domain: 5, the only value (Solana mainnet and devnet)'),
  rpcUrls: z
    .array(httpUrl)
    .default([])
    .describe(
      'http(s) JSON-RPC URLs, each tried in turn, the list 3 times; better given through `INDEXER_RPC_URLS_<NAME>` or `INDEXER_RPC_URLS_FILE`, as for EVM',
    ),
  transferProgram: base58Address
    .optional()
    .describe(
      'the transfer program (emits `TransferEvent`; its signatures are the cursor); mainnet default `5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM`, a testnet cluster must name it',
    ),
  messageTransmitterV1: base58Address
    .optional()
    .describe(
      "Circle's MessageTransmitter v1; mainnet default `CCTPmbSD7gX1bxKPAmg77w8oFzNFpaQiQUWD43TKaecd`, a testnet cluster must name it",
    ),
  messageTransmitterV2: base58Address
    .optional()
    .describe(
      "Circle's MessageTransmitter v2; mainnet default `CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC`, a testnet cluster must name it",
    ),
  tokenMessengerMinterV1: base58Address
    .optional()
    .describe(
      "Circle's TokenMessengerMinter v1; mainnet default `CCTPiPYPc6AsJuwueEnWgSgucamXDZwBd53dQ11YiKX3`, a testnet cluster must name it",
    ),
  tokenMessengerMinterV2: base58Address
    .optional()
    .describe(
      "Circle's TokenMessengerMinter v2; mainnet default `CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe`, a testnet cluster must name it",
    ),
  startSignature: z
    .string()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    .optional()
    .describe(
      "the oldest transfer-program signature to read back to (exclusive; e.g. the program's deployment transaction); absent = the program's whole history",
    ),
  pollIntervalMs: pollIntervalMs(4_000),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(1_000)
    .describe(
      "signatures per `getSignaturesForAddress` page and per write (the RPC's maximum is 1000)",
    ),
  rpcTimeoutMs: requestTimeoutMs('RPC'),
});

/**
 * One Solana cluster, with the mainnet program addresses filled in where not given. Fails
 * validation when a testnet cluster does not name every program.
 */
export const SolanaChainConfigSchema = SolanaChainInputSchema.transform(
  (chain, ctx) =>
    fillMainnetDefaults(chain, ctx, {
      fields: [
        'transferProgram',
        'messageTransmitterV1',
        'messageTransmitterV2',
        'tokenMessengerMinterV1',
        'tokenMessengerMinterV2',
      ],
      mainnet: () => MAINNET_PROGRAMS,
      what: 'programs',
      label: (c) => `${c.network} Solana`,
    }) ?? z.NEVER,
);

/** One indexed Solana cluster, validated. */
export type SolanaChainConfig = z.infer<typeof SolanaChainConfigSchema>;
