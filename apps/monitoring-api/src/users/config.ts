/**
 * Configuration of the users part of the Monitoring API that the app schema (src/config.ts) does
 * not already hold. src/config.ts merges this object (`ConfigSchema.extend(usersConfigSchema.shape)`),
 * so every variable is validated once at start-up: absent means the default, present but invalid
 * stops the process. USERNAME_SUFFIX, NONCE_TTL_SECONDS, ETH_RPC_URL and SOLANA_RPC_URL are in
 * src/config.ts already.
 */
import { envInteger } from '@ctss/server-kit';
import { z } from 'zod';
import { pointsConfigSchema } from '../points/rule.js';

/**
 * The default USERNAME_SUFFIX (docs/api.md "Users by wallet or username"): the suffix of every
 * username when the variable is absent; src/config.ts validates the variable.
 */
export const DEFAULT_USERNAME_SUFFIX = '.ctss';

/** Environment variables of the users / names module, with their defaults. */
export const usersConfigSchema = z.object({
  /**
   * ENS Universal Resolver contract queried with `resolveWithGateways`; the default is the
   * mainnet deployment viem ships for `mainnet`. Tests point it at their own deployment.
   */
  ENS_UNIVERSAL_RESOLVER: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
    .default('0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe'),
  /** How long a resolved (or unresolvable) name is cached in-process, seconds; 0 disables it. */
  NAME_CACHE_TTL_SECONDS: envInteger(0, 3600).default(60),
  /** Timeout of one name-resolution RPC request, milliseconds. */
  NAME_RPC_TIMEOUT_MS: envInteger(100, 60_000).default(5_000),
  /**
   * How long the unfiltered leaderboard `total_count` (the number of users) is cached in the
   * KvStore, seconds; 0 counts on every request. Counting scans every user (about 10-15 ms per
   * 100k users), searches are always counted exactly.
   */
  LEADERBOARD_COUNT_TTL_SECONDS: envInteger(0, 3600).default(5),
  /** The swap points rule (src/points/rule.ts): POINTS_PER_USD, POINTS_MULTIPLIERS. */
  ...pointsConfigSchema.shape,
});

/** Parsed users configuration. */
export type UsersConfig = z.output<typeof usersConfigSchema>;

/** The defaults, from the schema itself (one source). */
export const USERS_CONFIG_DEFAULTS: UsersConfig = usersConfigSchema.parse({});
