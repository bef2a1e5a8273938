/**
 * Query schemas of the users endpoints (docs/api.md "Leaderboard", "Users by wallet or
 * username", "Wallet binding"); the same schemas give the types, the validation and the OpenAPI
 * parameters. Repeated parameters arrive as arrays and are rejected (400), and so are unknown
 * parameters (strict objects), as everywhere in this API.
 */
import { ChainType, LeaderboardNetwork, z } from '@ctss/domain-types';

/** Leaderboard `limit` default and maximum (docs/api.md "Limits"). */
const LEADERBOARD_DEFAULT_LIMIT = 50;
const LEADERBOARD_MAX_LIMIT = 100;
/** Search terms are truncated to this many characters (docs/api.md "Limits"). */
export const SEARCH_MAX_LENGTH = 100;
/** Most `<address>_<chain>` entries accepted in one `?wallets=` query. */
export const MAX_WALLET_ENTRIES = 20;

/**
 * The first {@link SEARCH_MAX_LENGTH} UTF-16 units of a search term, less a high surrogate left
 * at the cut: half of a pair has no UTF-8 form and would be searched as U+FFFD.
 */
function truncateSearch(term: string): string {
  const cut = term.slice(0, SEARCH_MAX_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

const positiveInt = z
  .string()
  .regex(/^[0-9]+$/, 'must be a non-negative integer')
  .transform(Number);

/** `GET /users/leaderboard` query. */
export const LeaderboardQuery = z
  .object({
    network: LeaderboardNetwork.default('mainnet').openapi({
      description: '`mainnet` (default) or `devnet`',
    }),
    limit: positiveInt
      .pipe(z.number().int().min(1, 'must be at least 1'))
      .transform((n) => Math.min(n, LEADERBOARD_MAX_LIMIT))
      .default(LEADERBOARD_DEFAULT_LIMIT)
      .openapi({
        type: 'integer',
        description: 'page size, default 50; above 100 is clamped to 100 (echoed)',
      }),
    offset: positiveInt
      .pipe(z.number().int().min(0).max(1_000_000_000))
      .default(0)
      .openapi({ type: 'integer', description: 'rows to skip, default 0' }),
    search: z.string().default('').transform(truncateSearch).openapi({
      description: 'case-insensitive substring of the username; truncated to 100 characters',
    }),
  })
  .strict();
export type LeaderboardQuery = z.output<typeof LeaderboardQuery>;

/** `GET /users` query: exactly one of `wallets` and `domains` (docs/decisions.md "D32. The /users query"). */
export const UsersQuery = z
  .object({
    wallets: z
      .string()
      .max(MAX_WALLET_ENTRIES * 160)
      .optional()
      .openapi({
        description:
          'comma-separated `<address>_<chain>` (chain: evm, solana|sol, sui, aptos|apt), at most 20',
      }),
    domains: z
      .string()
      .max(200)
      .optional()
      .openapi({ description: 'one username including the service suffix' }),
  })
  .strict()
  .refine((q) => (q.wallets === undefined) !== (q.domains === undefined), {
    message: 'exactly one of wallets or domains is required',
  });
export type UsersQuery = z.output<typeof UsersQuery>;

/** `GET /users/messages` query. */
export const MessagesQuery = z
  .object({
    username: z.string().min(1).max(100).openapi({ description: 'username including its suffix' }),
    address: z
      .string()
      .min(1)
      .max(128)
      .openapi({ description: 'wallet address being bound or unbound' }),
    chain_type: ChainType,
  })
  .strict();
export type MessagesQuery = z.output<typeof MessagesQuery>;
