/**
 * The `/users` routes (docs/api.md "Leaderboard", "Users by wallet or username",
 * "Wallet binding"). Reads go to the read pool, binding to the primary. Every failure is an
 * HttpProblem (RFC 9457 body with `code`), turned into the response by the app's problem handler.
 */
import { ChainType, VerifyRequest, type WalletsQueryResponse } from '@ctss/domain-types';
import { createHash } from 'node:crypto';
import {
  HttpProblem,
  createCachedLoader,
  parseBody,
  parseQuery,
  sendJson,
  sendJsonText,
  stringifyJson,
  textCodec,
  type Codec,
  type KvStore,
  type Logger,
} from '@ctss/server-kit';
import express from 'express';
import type { Clock } from '../clock.js';
import type { AppConfig } from '../config.js';
import type { Databases } from '../db/connect.js';
import { CHAIN_LABELS, parseWalletAddress, type WalletAddress } from './address.js';
import { BindingService } from './binding-service.js';
import { LeaderboardQuery, MAX_WALLET_ENTRIES, MessagesQuery, UsersQuery } from './schemas.js';
import {
  countUsers,
  fetchDomainAggregate,
  fetchLeaderboard,
  findUsersByWallets,
} from './repository.js';

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
export function parseWalletsParam(value: string): WalletAddress[] {
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

/** What the users routes use: both pools, the KV store (nonces, counts), the clock, the logger. */
export interface UsersRouteDeps {
  readonly db: Databases;
  readonly kv: KvStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: Pick<
    AppConfig,
    'NONCE_TTL_SECONDS' | 'USERNAME_SUFFIX' | 'LEADERBOARD_COUNT_TTL_SECONDS'
  >;
}

/** Builds the router mounted at `/users`. */
export function createUsersRouter(deps: UsersRouteDeps): express.Router {
  const router = express.Router();
  const binding = new BindingService({
    primary: deps.db.primary,
    kv: deps.kv,
    clock: deps.clock,
    nonceTtlSeconds: deps.config.NONCE_TTL_SECONDS,
  });
  const suffix = deps.config.USERNAME_SUFFIX;
  // The total (of every user, or of a search's matches), cached for a few seconds (single-flight
  // on misses) instead of counted on each page.
  const cachedCount = createCachedLoader(deps.kv, {
    ttlSeconds: deps.config.LEADERBOARD_COUNT_TTL_SECONDS,
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
  // Pages are not cached (ttl 0) but single-flight: identical requests arriving while one is
  // being read share its query and its serialized body.
  const pages = createCachedLoader(deps.kv, { ttlSeconds: 0, logger: deps.logger });

  router.get('/leaderboard', async (req, res) => {
    const query = parseQuery(LeaderboardQuery, req.query);
    const search = createHash('sha256').update(query.search).digest('hex');
    const key = `users:leaderboard:${query.network}:${query.limit}:${query.offset}:${search}`;
    const body = await pages(
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
    sendJsonText(res, 200, body);
  });

  router.get('/messages', async (req, res) => {
    const query = parseQuery(MessagesQuery, req.query);
    if (!query.username.toLowerCase().endsWith(suffix)) {
      throw new HttpProblem(400, 'INVALID_QUERY', `username: must end with ${suffix}`);
    }
    sendJson(res, 200, await binding.issueNonce(query));
  });

  router.post('/verify', async (req, res) => {
    if (!req.is('application/json')) {
      throw new HttpProblem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    const body = parseBody(VerifyRequest, req.body);
    sendJson(res, 200, await binding.verify(body));
  });

  router.get('/', async (req, res) => {
    const query = parseQuery(UsersQuery, req.query);
    if (query.wallets !== undefined) {
      const users = await findUsersByWallets(deps.db.read, parseWalletsParam(query.wallets));
      const first = users[0];
      if (!first)
        throw new HttpProblem(404, 'NOT_FOUND', 'no username has any of these wallets bound');
      const response: WalletsQueryResponse = {
        username: first.username,
        ref_code: first.ref_code,
        users,
      };
      sendJson(res, 200, response);
      return;
    }
    const domain = (query.domains ?? '').trim();
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
    sendJson(res, 200, aggregate);
  });

  return router;
}
