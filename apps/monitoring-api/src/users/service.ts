/**
 * The users reads (docs/api.md "Leaderboard", "Users by wallet or username"): leaderboard pages,
 * the users owning some wallets, the domain aggregate of one username. Every read goes to the read
 * pool; every failure is an HttpProblem (RFC 9457 body with `code`). Wallet binding is
 * binding-service.ts.
 */
import { ChainType, type DomainAggregate, type WalletsQueryResponse } from '@ctss/domain-types';
import { createHash } from 'node:crypto';
import {
  HttpProblem,
  createCachedLoader,
  stringifyJson,
  textCodec,
  type Codec,
  type KvStore,
  type Logger,
} from '@ctss/server-kit';
import type { Databases } from '../db/connect.js';
import { CHAIN_LABELS, parseWalletAddress, type WalletAddress } from './address.js';
import {
  countUsers,
  fetchDomainAggregate,
  fetchLeaderboard,
  findUsersByWallets,
} from './repository.js';
import { MAX_WALLET_ENTRIES, type LeaderboardQuery } from './schemas.js';

/** Cache codec of a user count. */
const countCodec: Codec<number> = { encode: (n) => String(n), decode: (text) => Number(text) };

/** KvStore key of the cached unfiltered leaderboard total (a search's total: `<key>:<sha256 of the lower-cased search>`). */
export const LEADERBOARD_TOTAL_KEY = 'users:leaderboard:total';

/**
 * Parses `<address>_<chain>,<address>_<chain>,...` (split at the last underscore; addresses never
 * contain one).
 *
 * @throws HttpProblem 400 INVALID_QUERY: empty list, more than 20 entries, unknown chain label,
 *         malformed address.
 */
function parseWalletsParam(value: string): WalletAddress[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (entries.length === 0)
    throw new HttpProblem(400, 'INVALID_QUERY', 'wallets: at least one <address>_<chain> entry');
  if (entries.length > MAX_WALLET_ENTRIES) {
    throw new HttpProblem(400, 'INVALID_QUERY', `wallets: at most ${MAX_WALLET_ENTRIES} entries`);
  }
  return entries.map((entry) => {
    const cut = entry.lastIndexOf('_');
    const label = cut > 0 ? entry.slice(cut + 1).toLowerCase() : '';
    const chainType = Object.hasOwn(CHAIN_LABELS, label) ? CHAIN_LABELS[label] : undefined;
    if (!chainType) {
      throw new HttpProblem(
        400,
        'INVALID_QUERY',
        `wallets: entry must be <address>_<chain> with chain one of ${ChainType.options.join(', ')}`,
      );
    }
    const wallet = parseWalletAddress(chainType, entry.slice(0, cut));
    if (!wallet)
      throw new HttpProblem(400, 'INVALID_QUERY', `wallets: not a valid ${chainType} address`);
    return wallet;
  });
}

/** What the users reads use: the read pool, the KV store (cached totals), the logger. */
export interface UsersServiceDeps {
  readonly db: Pick<Databases, 'read'>;
  readonly kv: KvStore;
  readonly logger: Logger;
  /** The suffix every username ends with (USERNAME_SUFFIX, e.g. `.ctss`). */
  readonly usernameSuffix: string;
  /**
   * Lifetime of a cached leaderboard total, seconds; 0 counts on every request
   * (LEADERBOARD_COUNT_TTL_SECONDS).
   */
  readonly countTtlSeconds: number;
}

/** The reads behind `GET /users/leaderboard` and `GET /users`. */
export interface UsersService {
  /**
   * One leaderboard page (docs/api.md "Leaderboard") as JSON text: `leaderboard`, `total_count`,
   * `limit`, `offset`, `has_more`.
   *
   * @throws the database error of the query (a 503 or 500 through the problem handler).
   */
  leaderboardPage(query: LeaderboardQuery): Promise<string>;
  /**
   * The users owning any of the wallets of a `wallets` parameter (`<address>_<chain>,...`); the
   * first one names the response.
   *
   * @throws HttpProblem 400 INVALID_QUERY (see {@link parseWalletsParam}), 404 NOT_FOUND when
   *         none of the wallets is bound.
   */
  usersByWallets(wallets: string): Promise<WalletsQueryResponse>;
  /**
   * The domain aggregate of the one username of a `domains` parameter.
   *
   * @throws HttpProblem 400 INVALID_QUERY (several names, or not a name ending with the suffix),
   *         404 NOT_FOUND (unknown username).
   */
  domainAggregate(domains: string): Promise<DomainAggregate>;
}

/**
 * The users reads over `deps.db.read`. A leaderboard total (of every user, or of a search's
 * matches) is cached for `countTtlSeconds` with single-flight on misses instead of counted on each
 * page; pages are not cached but single-flight: identical requests arriving while one is being
 * read share its query and its serialized body (docs/decisions.md "D31. Cache lifetimes and
 * single-flight").
 */
export function createUsersService(deps: UsersServiceDeps): UsersService {
  const suffix = deps.usernameSuffix;
  const cachedCount = createCachedLoader(deps.kv, {
    ttlSeconds: deps.countTtlSeconds,
    logger: deps.logger,
  });
  const totalUsers = (search: string) =>
    cachedCount(
      search
        ? `${LEADERBOARD_TOTAL_KEY}:${createHash('sha256').update(search.toLowerCase()).digest('hex')}`
        : LEADERBOARD_TOTAL_KEY,
      () => countUsers(deps.db.read, search),
      countCodec,
    );
  const pages = createCachedLoader(deps.kv, { ttlSeconds: 0, logger: deps.logger });

  return {
    async leaderboardPage(query) {
      const search = createHash('sha256').update(query.search).digest('hex');
      const key = `users:leaderboard:${query.network}:${query.limit}:${query.offset}:${search}`;
      return pages(
        key,
        async () => {
          const { entries, totalCount } = await fetchLeaderboard(deps.db.read, query, {
            totalUsers,
          });
          return stringifyJson({
            leaderboard: entries,
            total_count: totalCount,
            limit: query.limit,
            offset: query.offset,
            has_more: query.offset + entries.length < totalCount,
          });
        },
        textCodec,
      );
    },
    async usersByWallets(wallets) {
      const users = await findUsersByWallets(deps.db.read, parseWalletsParam(wallets));
      const first = users[0];
      if (!first)
        throw new HttpProblem(404, 'NOT_FOUND', 'no username has any of these wallets bound');
      return { username: first.username, ref_code: first.ref_code, users };
    },
    async domainAggregate(domains) {
      const domain = domains.trim();
      if (domain.includes(','))
        throw new HttpProblem(400, 'INVALID_QUERY', 'domains: one username per request');
      if (!domain.toLowerCase().endsWith(suffix) || domain.length === suffix.length) {
        throw new HttpProblem(
          400,
          'INVALID_QUERY',
          `domains: must be a username ending with ${suffix}`,
        );
      }
      const aggregate = await fetchDomainAggregate(deps.db.read, domain);
      if (!aggregate) throw new HttpProblem(404, 'NOT_FOUND', `no user named ${domain}`);
      return aggregate;
    },
  };
}
