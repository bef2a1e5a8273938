/**
 * Configuration of the users part of the Monitoring API that the app schema (src/config.ts) does
 * not already hold. src/config.ts merges this object (`ConfigSchema.extend(usersConfigSchema.shape)`),
 * so every variable is validated once at start-up: absent means the default, present but invalid
 * stops the process. USERNAME_SUFFIX and NONCE_TTL_SECONDS are in src/config.ts already, name
 * resolution's in src/names/config.ts.
 */
import { envInteger } from '@ctss/server-kit';
import { z } from 'zod';
import { pointsConfigSchema } from '../points/rule.js';

/**
 * The default USERNAME_SUFFIX (docs/api.md "Users by wallet or username"): the suffix of every
 * username when the variable is absent; src/config.ts validates the variable.
 */
export const DEFAULT_USERNAME_SUFFIX = '.ctss';

/** Environment variables of the users module, with their defaults. */
export const usersConfigSchema = z.object({
  LEADERBOARD_COUNT_TTL_SECONDS: envInteger(0, 3600)
    .default(5)
    .describe(
      'lifetime of the cached leaderboard `total_count` (unfiltered, and per search), seconds; `0` counts on every request (a count scans every user, about 10-15 ms per 100k users)',
    ),
  /** The swap points rule (src/points/rule.ts): POINTS_PER_USD, POINTS_MULTIPLIERS. */
  ...pointsConfigSchema.shape,
});
