/**
 * Configuration of `.eth` / `.sol` name resolution (docs/decisions.md "D10. Name resolution").
 * src/config.ts merges this object (`.extend(namesConfigSchema.shape)`), so every variable is
 * validated once at start-up: absent means the default, present but invalid stops the process.
 * ETH_RPC_URL and SOLANA_RPC_URL are in src/config.ts.
 */
import { envInteger } from '@ctss/server-kit';
import { z } from 'zod';

/** Environment variables of name resolution, with their defaults. */
export const namesConfigSchema = z.object({
  ENS_UNIVERSAL_RESOLVER: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
    .default('0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe')
    .describe(
      'ENS Universal Resolver contract queried with `resolveWithGateways`; the default is the mainnet deployment viem ships',
    ),
  NAME_CACHE_TTL_SECONDS: envInteger(0, 3600)
    .default(60)
    .describe(
      'how long a resolved (or unresolvable) name is cached in process, seconds; `0` = off',
    ),
  NAME_RPC_TIMEOUT_MS: envInteger(100, 60_000)
    .default(5_000)
    .describe('timeout of one name-resolution RPC request, ms'),
});

/** Parsed name resolution configuration. */
export type NamesConfig = z.output<typeof namesConfigSchema>;

/** The defaults, from the schema itself (one source). */
export const NAMES_CONFIG_DEFAULTS: NamesConfig = namesConfigSchema.parse({});
