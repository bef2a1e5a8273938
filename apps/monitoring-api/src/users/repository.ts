/**
 * SQL of the users feature: reads of users, wallets and points (`GET /users/leaderboard`,
 * `GET /users`; the read pool) and the writes of wallet binding (`POST /users/verify`; the
 * primary). Every query takes the database handle (db/database.ts) to run on.
 */
import {
  LeaderboardNetwork,
  type ChainType,
  type DomainAggregate,
  type LeaderboardEntry,
  type UserRecord,
} from '@ctss/domain-types';
import type { Queryable, Session } from '../db/statements.js';
import type { WalletAddress } from './address.js';
import { prepare, type PreparedStatement } from '../db/statements.js';
import { REFERRAL_SHARE, ownTotalsSql, rankColumn } from './points-sql.js';

/** A user's identity columns. */
export interface UserIdentity {
  id: number;
  username: string;
  ref_code: string;
}

/** Escapes LIKE metacharacters (`\`, `%`, `_`) so a search term matches literally (ESCAPE '\'). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Finds a user by username, case-insensitively. */
export async function findUserByUsername(
  db: Queryable,
  username: string,
): Promise<UserIdentity | undefined> {
  const result = await db.execute<{ id: string; username: string; ref_code: string }>(
    'select id, username, ref_code from users where lower(username) = lower($1)',
    [username],
  );
  const row = result.rows[0];
  return row ? { id: Number(row.id), username: row.username, ref_code: row.ref_code } : undefined;
}

/** Parameters of a leaderboard page. */
export interface LeaderboardPageQuery {
  network: LeaderboardNetwork;
  limit: number;
  offset: number;
  /** Case-insensitive substring of the username (already truncated); empty = everyone. */
  search: string;
}

interface LeaderboardRow {
  id: string;
  username: string;
  ref_code: string;
  domain_multiplier: number;
  staked_op_nfts: number;
  staked_eth_nfts: number;
  domain_rank: number | null;
  wallet_count: number;
  total_base_points: number;
  domain_total_multiplied_points: number;
  referral_points: number;
}

/**
 * How a username search is matched:
 * - `trigram`: `lower(username) like '%term%'`, served by users_username_trgm_idx. pg_trgm takes
 *   trigrams from runs of three or more letters or digits in the pattern; a term without such a
 *   run yields none, and the index then returns every user (a 2-character search cost 282 ms with
 *   the generic plan on 100k users: packages/bench/FINDINGS.md).
 * - `scan`: the same LIKE on `lower(username) || ''`, an expression the trigram index does not
 *   cover, so the planner walks the rank index and stops after a page of matches. (`strpos` would
 *   also avoid the index, but its default selectivity of 1/3 made the generic plan aggregate every
 *   user's wallets: 50 ms against 11 ms.)
 */
export type SearchShape = 'none' | 'trigram' | 'scan';

/** Every {@link SearchShape}. */
const SEARCH_SHAPES: readonly SearchShape[] = ['none', 'trigram', 'scan'];

/** A run of three letters or digits: the shortest term pg_trgm extracts a trigram from. */
const TRIGRAM_RUN = /[\p{L}\p{N}]{3}/u;

/** The shape of a search term (see {@link SearchShape}). */
export function searchShape(search: string): SearchShape {
  if (!search) return 'none';
  return TRIGRAM_RUN.test(search) ? 'trigram' : 'scan';
}

/**
 * The WHERE clause of a leaderboard search of `shape`, comparing with the SQL expression `pattern`
 * (a parameter, e.g. `$1`); `true` without a search.
 */
function searchFilterSql(shape: SearchShape, pattern: string): string {
  if (shape === 'none') return 'true';
  const username = shape === 'trigram' ? 'lower(u.username)' : "(lower(u.username) || '')";
  return `${username} like ${pattern} escape '\\'`;
}

/** The bound values of a search's filter: its LIKE pattern, or none without a search. */
function searchBindings(search: string, shape: SearchShape): string[] {
  return shape === 'none' ? [] : [`%${escapeLike(search.toLowerCase())}%`];
}

/** The user count statement of each search shape (`$1` = the LIKE pattern, when searching). */
const COUNT_STATEMENTS = Object.fromEntries(
  SEARCH_SHAPES.map((shape) => [
    shape,
    prepare(
      'users_count',
      `select count(*)::int from users u where ${searchFilterSql(shape, '$1')}`,
    ),
  ]),
) as Record<SearchShape, PreparedStatement>;

/**
 * Number of users whose username contains `search` case-insensitively (empty = every user). A
 * search of three or more letters or digits uses the trigram index (< 1 ms); a shorter one and the
 * unfiltered count read the users table (about 10-15 ms per 100k users), so the leaderboard caches
 * totals (see {@link fetchLeaderboard}).
 */
export async function countUsers(db: Queryable, search: string): Promise<number> {
  const shape = searchShape(search);
  const [row] = await db.arrays(COUNT_STATEMENTS[shape], searchBindings(search, shape));
  return Number(row?.[0] ?? 0);
}

/**
 * The leaderboard page statement of `network`, with or without the username search filter
 * (`$1` = the search binding of `shape` when searching; then page size, offset and the referral
 * share).
 */
function buildLeaderboardStatement(
  network: LeaderboardNetwork,
  shape: SearchShape,
): PreparedStatement {
  const rank = rankColumn(network);
  // Every input is an InitPlan value (`(select $1)`), so the statement is planned once and its
  // plan cached. With literal values each execution was planned anew: 3-4 ms for a search (binds
  // of 15-40 ms under load), 1.7 ms for the unfiltered page, more than it took to run. The page's
  // ids come as an array the planner sizes at 10 elements, so the points CTEs are planned as
  // index lookups for a page's users; a plain `limit $2` subquery left them at 10% of the table in
  // the generic plan, which aggregated every user's wallets (4x slower, packages/bench/FINDINGS.md).
  const filter = searchFilterSql(shape, '(select $1::text)');
  const n = shape === 'none' ? 0 : 1;
  return prepare(
    'leaderboard',
    `with page as (
       -- The page's ids first (an index-only scan of users_rank_<network>_idx when unfiltered, so
       -- skipping the offset reads no table rows), then their rows by primary key.
       select u.id, u.username, u.ref_code, u.domain_multiplier, u.staked_op_nfts, u.staked_eth_nfts,
              u.${rank} as domain_rank
         from users u
        where u.id = any(array(
                select u.id
                  from users u
                 where ${filter}
                 order by u.${rank} asc nulls last, u.id asc
                 limit (select $${n + 1}::int8) offset (select $${n + 2}::int8)))
     ),
     scope as (
       select id from page
       union
       select r.referee_id from referrals r where r.referrer_id = any(array(select id from page))
     ),
     own as (${ownTotalsSql(network, 'select id from scope')}),
     refs as (
       select r.referrer_id as id, sum(o.domain_total_multiplied_points) as points
         from referrals r join own o on o.id = r.referee_id
        where r.referrer_id = any(array(select id from page))
        group by r.referrer_id
     )
     select p.*, o.wallet_count, o.total_base_points, o.domain_total_multiplied_points,
            (coalesce(refs.points, 0) * $${n + 3}::float8)::float8 as referral_points
       from page p
       join own o on o.id = p.id
       left join refs on refs.id = p.id
      order by p.domain_rank asc nulls last, p.id asc`,
  );
}

/** The leaderboard page statement of every network and search shape, built once at load. */
const LEADERBOARD_STATEMENTS = Object.fromEntries(
  LeaderboardNetwork.options.map((network) => [
    network,
    Object.fromEntries(
      SEARCH_SHAPES.map((shape) => [shape, buildLeaderboardStatement(network, shape)]),
    ),
  ]),
) as Record<LeaderboardNetwork, Record<SearchShape, PreparedStatement>>;

/** Options of {@link fetchLeaderboard}. */
export interface LeaderboardOptions {
  /**
   * Source of the total for a search (`''` = every user), e.g. a short-lived cache over
   * {@link countUsers}; absent = counted on every request.
   */
  readonly totalUsers?: (search: string) => Promise<number>;
}

/**
 * One leaderboard page and the number of matching users. Order: stored rank ascending, then
 * unranked users (null rank) by user id; the users_rank_<network>_idx index serves it. Points
 * and referral points are computed for the page's users and their referees only, so the cost
 * follows the page, not the table.
 */
export async function fetchLeaderboard(
  db: Queryable,
  query: LeaderboardPageQuery,
  options: LeaderboardOptions = {},
): Promise<{ entries: LeaderboardEntry[]; totalCount: number }> {
  const shape = searchShape(query.search);
  const filterBindings = searchBindings(query.search, shape);
  // The total and the page at once: the total is usually a cache read, and waiting for it first
  // added a round trip to every page.
  const [totalCount, rows] = await Promise.all([
    options.totalUsers ? options.totalUsers(query.search) : countUsers(db, query.search),
    db.rows<LeaderboardRow>(LEADERBOARD_STATEMENTS[query.network][shape], [
      ...filterBindings,
      query.limit,
      query.offset,
      REFERRAL_SHARE,
    ]),
  ]);

  const entries = rows.map((row): LeaderboardEntry => ({
    user_id: Number(row.id),
    username: row.username,
    ref_code: row.ref_code,
    total_base_points: row.total_base_points,
    domain_multiplier: row.domain_multiplier,
    domain_total_multiplied_points: row.domain_total_multiplied_points,
    referral_points: row.referral_points,
    total_points_with_referrals: row.domain_total_multiplied_points + row.referral_points,
    staked_op_nfts: row.staked_op_nfts,
    staked_eth_nfts: row.staked_eth_nfts,
    wallet_count: row.wallet_count,
    domain_rank: row.domain_rank,
  }));
  return { entries, totalCount };
}

interface WalletRow {
  user_id: string;
  chain_type: ChainType;
  address: string;
  swap_points: number;
  swap_points_mainnet: number;
  testnet_points: number;
  points_multiplier: number;
  total_points_multiplied: number;
  total_points_multiplied_mainnet: number;
}

/** Bound wallets of the given users with their points (zeros / multiplier 1 when no points row). */
async function fetchWallets(db: Queryable, userIds: number[]): Promise<WalletRow[]> {
  const result = await db.execute<WalletRow>(
    `select w.user_id, w.chain_type, w.address,
            coalesce(p.swap_points, 0) as swap_points,
            coalesce(p.swap_points_mainnet, 0) as swap_points_mainnet,
            coalesce(p.testnet_points, 0) as testnet_points,
            coalesce(p.points_multiplier, 1) as points_multiplier,
            coalesce(p.total_points_multiplied, 0) as total_points_multiplied,
            coalesce(p.total_points_multiplied_mainnet, 0) as total_points_multiplied_mainnet
       from user_wallets w
       left join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
      where w.user_id = any($1::bigint[])
      order by w.user_id, w.chain_type`,
    [userIds],
  );
  return result.rows;
}

/**
 * Users owning any of `wallets`, in the order their first wallet appears in the query, each with
 * all of its bound wallets and points (docs/api.md "Users by wallet or username"):
 * max_multiplier = max(points_multiplier), testnet_points = sum(testnet_points),
 * swap_points = sum(swap_points) over the user's wallets; nft_points from the user.
 */
export async function findUsersByWallets(
  db: Queryable,
  wallets: readonly WalletAddress[],
): Promise<UserRecord[]> {
  const matched = await db.execute<{
    id: string;
    username: string;
    ref_code: string;
    nft_points: number;
  }>(
    `select u.id, u.username, u.ref_code, u.nft_points
       from (
         select w.user_id, min(q.ord) as first_ord
           from unnest($1::text[], $2::text[]) with ordinality as q(chain_type, address_key, ord)
           join user_wallets w on w.chain_type = q.chain_type and w.address_key = q.address_key
          group by w.user_id
       ) m
       join users u on u.id = m.user_id
      order by m.first_ord`,
    [wallets.map((w) => w.chainType), wallets.map((w) => w.key)],
  );
  if (matched.rows.length === 0) return [];
  const walletRows = await fetchWallets(
    db,
    matched.rows.map((u) => Number(u.id)),
  );
  return matched.rows.map((user): UserRecord => {
    const own = walletRows.filter((w) => w.user_id === user.id);
    return {
      user_id: Number(user.id),
      username: user.username,
      ref_code: user.ref_code,
      wallets: own.map((w) => ({
        address: w.address,
        chain_type: w.chain_type,
        swap_points: w.swap_points,
        swap_points_mainnet: w.swap_points_mainnet,
        points_multiplier: w.points_multiplier,
        total_points_multiplied: w.total_points_multiplied,
        total_points_multiplied_mainnet: w.total_points_multiplied_mainnet,
      })),
      max_multiplier: own.reduce((max, w) => Math.max(max, w.points_multiplier), 0),
      testnet_points: own.reduce((sum, w) => sum + w.testnet_points, 0),
      nft_points: user.nft_points,
      swap_points: own.reduce((sum, w) => sum + w.swap_points, 0),
    };
  });
}

/**
 * The domain aggregate of a username (docs/api.md "Users by wallet or
 * username"), or undefined for an unknown
 * username. `domain_total_multiplied_points` is the devnet total, `_mainnet` the mainnet one.
 * A user without a stored rank has rank 0 (ranks are integers, docs/decisions.md "D35. Unranked
 * users"; real ranks start at 1).
 */
export async function fetchDomainAggregate(
  db: Queryable,
  username: string,
): Promise<DomainAggregate | undefined> {
  const userResult = await db.execute<{
    id: string;
    username: string;
    ref_code: string;
    staked_op_nfts: number;
    staked_eth_nfts: number;
    nft_points: number;
    domain_rank_mainnet: number | null;
    domain_rank_devnet: number | null;
  }>(
    `select id, username, ref_code, staked_op_nfts, staked_eth_nfts, nft_points, domain_rank_mainnet, domain_rank_devnet
       from users where lower(username) = lower($1)`,
    [username],
  );
  const user = userResult.rows[0];
  if (!user) return undefined;
  const id = Number(user.id);
  const totals = await db.execute<{ mainnet: number; devnet: number }>(
    `select (select domain_total_multiplied_points from (${ownTotalsSql('mainnet', 'select $1::bigint')}) m) as mainnet,
            (select domain_total_multiplied_points from (${ownTotalsSql('devnet', 'select $1::bigint')}) d) as devnet`,
    [id],
  );
  const wallets = await fetchWallets(db, [id]);
  const byChain = new Map(wallets.map((w) => [w.chain_type, w]));
  const evm = byChain.get('evm');
  const sol = byChain.get('solana');
  return {
    username: user.username,
    ref_code: user.ref_code,
    binded_wallets: {
      evm: evm?.address ?? '',
      sol: sol?.address ?? '',
      apt: byChain.get('aptos')?.address ?? '',
      sui: byChain.get('sui')?.address ?? '',
    },
    leaderboard_rank_mainnet: user.domain_rank_mainnet ?? 0,
    leaderboard_rank_devnet: user.domain_rank_devnet ?? 0,
    domain_total_multiplied_points_mainnet: totals.rows[0]?.mainnet ?? 0,
    domain_total_multiplied_points: totals.rows[0]?.devnet ?? 0,
    ...(evm && {
      evm: {
        address: evm.address,
        chain_type: 'evm',
        swap_points: evm.swap_points,
        testnet_points: evm.testnet_points,
        points_multiplier: evm.points_multiplier,
        total_points_multiplied: evm.total_points_multiplied,
        swap_points_mainnet: evm.swap_points_mainnet,
        total_points_multiplied_mainnet: evm.total_points_multiplied_mainnet,
        staked_eth_nfts: user.staked_eth_nfts,
        staked_op_nfts: user.staked_op_nfts,
        nft_points: user.nft_points,
      },
    }),
    ...(sol && {
      sol: {
        address: sol.address,
        chain_type: 'solana',
        swap_points: sol.swap_points,
        testnet_points: sol.testnet_points,
        points_multiplier: sol.points_multiplier,
        total_points_multiplied: sol.total_points_multiplied,
      },
    }),
  };
}

/*
 * Writes of wallet bindings (run on the primary). The unique constraints of `user_wallets` decide
 * races: of two concurrent binds of one wallet, or of two wallets of one chain to one user, one
 * insert wins and the other fails with 23505, reported as ALREADY_BOUND.
 */

/** Outcome of a bind's insert (part of {@link AuthorizedBindOutcome}). */
type BindOutcome = 'bound' | 'wallet_taken' | 'chain_taken';

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** Unbinds `wallet` from user `userId`; false when it was not bound to that user. */
async function unbindWallet(
  db: Queryable,
  userId: number,
  wallet: WalletAddress,
): Promise<boolean> {
  const result = await db.execute(
    'delete from user_wallets where user_id = $1 and chain_type = $2 and address_key = $3',
    [userId, wallet.chainType, wallet.key],
  );
  return (result.rowCount ?? 0) > 0;
}

/** Outcome of {@link createUserWithWallet}. */
export type ClaimOutcome =
  { outcome: 'created'; user: UserIdentity } | { outcome: 'username_taken' | 'wallet_taken' };

/**
 * Creates user `username` (canonical form) with a fresh unique referral code and binds `wallet`
 * to it, in one transaction: a username never exists without the wallet that claimed it.
 *
 * @returns `created` with the user, `username_taken` (a concurrent claim won, case-insensitively)
 *          or `wallet_taken` (the wallet is bound elsewhere).
 */
export async function createUserWithWallet(
  db: Session,
  username: string,
  wallet: WalletAddress,
  newRefCode: () => string,
): Promise<ClaimOutcome> {
  for (let attempt = 0; ; attempt++) {
    const refCode = newRefCode();
    try {
      return await db.transaction(async (trx) => {
        const created = await trx.execute<{ id: string }>(
          'insert into users (username, ref_code) values ($1, $2) returning id',
          [username, refCode],
        );
        const id = Number(created.rows[0]?.id);
        await trx.execute(
          'insert into user_wallets (user_id, chain_type, address, address_key) values ($1, $2, $3, $4)',
          [id, wallet.chainType, wallet.display, wallet.key],
        );
        return { outcome: 'created' as const, user: { id, username, ref_code: refCode } };
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (err.constraint === 'users_ref_code_key' && attempt < 5) continue;
      if (err.constraint === 'users_username_lower_key') return { outcome: 'username_taken' };
      if (err.constraint === 'user_wallets_wallet_key') return { outcome: 'wallet_taken' };
      throw err;
    }
  }
}

/** Outcome of {@link bindAuthorizedWallet}. */
export type AuthorizedBindOutcome = BindOutcome | 'authorization_required' | 'not_authorized';

/**
 * Binds `wallet` to user `userId` when the user has no wallet yet (its first, the joining path)
 * or when `authorizer` is one of its bound wallets. The user row is locked for the check and the
 * insert, so two first binds of one username cannot both pass as "first".
 *
 * @returns `bound`, `wallet_taken`, `chain_taken`, `authorization_required` (the user has wallets
 *          and no authorizer was given) or `not_authorized` (the authorizer is not bound to it).
 */
export async function bindAuthorizedWallet(
  db: Session,
  userId: number,
  wallet: WalletAddress,
  authorizer: WalletAddress | undefined,
): Promise<AuthorizedBindOutcome> {
  try {
    return await db.transaction(async (trx) => {
      await trx.execute('select id from users where id = $1 for update', [userId]);
      const bound = await trx.execute<{ chain_type: string; address_key: string }>(
        'select chain_type, address_key from user_wallets where user_id = $1',
        [userId],
      );
      if (bound.rows.length > 0) {
        if (!authorizer) return 'authorization_required';
        const ok = bound.rows.some(
          (w) => w.chain_type === authorizer.chainType && w.address_key === authorizer.key,
        );
        if (!ok) return 'not_authorized';
      }
      await trx.execute(
        'insert into user_wallets (user_id, chain_type, address, address_key) values ($1, $2, $3, $4)',
        [userId, wallet.chainType, wallet.display, wallet.key],
      );
      return 'bound';
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return err.constraint === 'user_wallets_user_chain_key' ? 'chain_taken' : 'wallet_taken';
  }
}

/**
 * Unbinds `wallet` from user `userId` unless it is the user's last wallet (a username always
 * keeps an owner, docs/decisions.md "D152. Joining: a username is claimed by its first signed bind").
 *
 * @returns `unbound`, `not_bound` or `last_wallet`.
 */
export async function unbindOwnedWallet(
  db: Session,
  userId: number,
  wallet: WalletAddress,
): Promise<'unbound' | 'not_bound' | 'last_wallet'> {
  return db.transaction(async (trx) => {
    await trx.execute('select id from users where id = $1 for update', [userId]);
    const bound = await trx.execute<{ chain_type: string; address_key: string }>(
      'select chain_type, address_key from user_wallets where user_id = $1',
      [userId],
    );
    if (!bound.rows.some((w) => w.chain_type === wallet.chainType && w.address_key === wallet.key))
      return 'not_bound';
    if (bound.rows.length === 1) return 'last_wallet';
    await unbindWallet(trx, userId, wallet);
    return 'unbound';
  });
}
