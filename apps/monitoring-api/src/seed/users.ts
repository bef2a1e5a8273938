/**
 * Demo users: usernames with the service suffix, wallets on evm/solana/sui/aptos with points,
 * referrals and NFT stakes, then the stored ranks (recomputeRanks). Deterministic for a given
 * Rng. Rows are written with `insert ... select from unnest(arrays)`, one statement per 5,000
 * rows and a handful of parameters each, so 100,000 users take seconds on PostgreSQL and work on
 * the embedded PGlite too.
 */
import type { ChainType } from '@ctss/domain-types';
import { base58 } from '@scure/base';
import type { Session } from '../db/statements.js';
import { DEFAULT_USERNAME_SUFFIX } from '../users/config.js';
import { recomputeRanks } from '../users/ranks.js';
import type { Rng } from './rng.js';

/** Options of {@link seedUsers}. */
export interface SeedUsersOptions {
  /** Number of users to create. */
  users: number;
  /** Username suffix (the caller's USERNAME_SUFFIX); absent = its default, `.ctss`. */
  usernameSuffix?: string;
  /** Creation time of the users (default: now). */
  now?: Date;
}

/** A generated user with wallets. */
export interface SeedUser {
  username: string;
  ref_code: string;
  domain_multiplier: number;
  staked_op_nfts: number;
  staked_eth_nfts: number;
  nft_points: number;
  /** Index (into the generated list) of the referrer, or undefined. */
  referrer?: number;
  wallets: SeedWallet[];
}

/** A generated wallet with points (totals = points x multiplier). */
interface SeedWallet {
  chain_type: ChainType;
  address: string;
  address_key: string;
  swap_points: number;
  swap_points_mainnet: number;
  testnet_points: number;
  points_multiplier: number;
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'zen',
  'to',
  'vi',
  'nu',
  'sa',
  'el',
  'dor',
  'py',
  'qu',
  'fi',
  'ox',
  'ja',
];
const BATCH = 5_000;

/** Points with a long tail (most wallets small, a few large), two decimals. */
function points(rng: Rng, scale: number): number {
  return Math.round(rng.next() ** 3 * scale * 100) / 100;
}

function wallet(rng: Rng, chainType: ChainType): SeedWallet {
  let address: string;
  switch (chainType) {
    case 'evm':
      address = `0x${rng.hex(40)}`;
      break;
    case 'solana':
      address = base58.encode(rng.bytes(32));
      break;
    case 'sui':
    case 'aptos':
      address = `0x${rng.hex(64)}`;
      break;
  }
  return {
    chain_type: chainType,
    address,
    address_key: chainType === 'solana' ? address : address.toLowerCase(),
    swap_points: rng.chance(0.7) ? points(rng, 5_000) : 0,
    swap_points_mainnet: rng.chance(0.6) ? points(rng, 20_000) : 0,
    testnet_points: rng.chance(0.3) ? points(rng, 500) : 0,
    points_multiplier: rng.pick([1, 1, 1, 1.1, 1.25, 1.5, 2]),
  };
}

/** Generates `count` users (pure: same Rng state, same users). */
export function generateUsers(rng: Rng, count: number, suffix: string): SeedUser[] {
  const users: SeedUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const stem = `${rng.pick(SYLLABLES)}${rng.pick(SYLLABLES)}`;
    const opNfts = rng.chance(0.08) ? rng.int(1, 5) : 0;
    const ethNfts = rng.chance(0.05) ? rng.int(1, 3) : 0;
    const wallets: SeedWallet[] = [];
    if (rng.chance(0.9)) wallets.push(wallet(rng, 'evm'));
    if (rng.chance(0.5)) wallets.push(wallet(rng, 'solana'));
    if (rng.chance(0.25)) wallets.push(wallet(rng, 'sui'));
    if (rng.chance(0.2)) wallets.push(wallet(rng, 'aptos'));
    users.push({
      username: `${stem}${i.toString(36)}${suffix}`,
      ref_code: `${i.toString(36).toUpperCase().padStart(4, '0')}${rng.hex(4).toUpperCase()}`,
      domain_multiplier: rng.pick([1, 1, 1, 1.1, 1.2, 1.5]),
      staked_op_nfts: opNfts,
      staked_eth_nfts: ethNfts,
      nft_points: (opNfts + ethNfts) * 100,
      ...(i > 10 && rng.chance(0.3) ? { referrer: rng.int(0, i - 1) } : {}),
      wallets,
    });
  }
  return users;
}

/** One array per field of {@link columns}' `keys`: `T[K[0]][]`, `T[K[1]][]`, ... */
type Columns<T, K extends readonly (keyof T)[]> = { [I in keyof K]: T[K[I]][] };

/**
 * The bound arrays of an `insert ... select from unnest(...)`: for each of `keys`, in order, the
 * array of that field over `rows` (one array a column).
 */
function columns<T, const K extends readonly (keyof T)[]>(
  rows: readonly T[],
  keys: K,
): Columns<T, K> {
  return keys.map((key) => rows.map((row) => row[key])) as Columns<T, K>;
}

async function insertUserBatch(
  db: Session,
  users: SeedUser[],
  createdAt: Date,
): Promise<Map<string, number>> {
  const rows = await db.rows<{ id: string; username: string }>(
    `insert into users (username, ref_code, domain_multiplier, staked_op_nfts, staked_eth_nfts, nft_points, created_at)
     select u.*, $1::timestamptz
       from unnest($2::text[], $3::text[], $4::float8[], $5::int[], $6::int[], $7::float8[]) as u
     returning id, username`,
    [
      createdAt.toISOString(),
      ...columns(users, [
        'username',
        'ref_code',
        'domain_multiplier',
        'staked_op_nfts',
        'staked_eth_nfts',
        'nft_points',
      ]),
    ],
  );
  return new Map(rows.map((r) => [r.username, Number(r.id)]));
}

async function insertWalletBatch(
  db: Session,
  rows: { userId: number; wallet: SeedWallet }[],
): Promise<void> {
  const w = rows.map((r) => r.wallet);
  await db.execute(
    `insert into user_wallets (user_id, chain_type, address, address_key)
     select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[])`,
    [rows.map((r) => r.userId), ...columns(w, ['chain_type', 'address', 'address_key'])],
  );
  await db.execute(
    `insert into wallet_points (chain_type, address_key, swap_points, swap_points_mainnet, testnet_points,
                                points_multiplier, total_points_multiplied, total_points_multiplied_mainnet)
     select c, k, s, m, t, x, s * x, m * x
       from unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[]) as p(c, k, s, m, t, x)`,
    columns(w, [
      'chain_type',
      'address_key',
      'swap_points',
      'swap_points_mainnet',
      'testnet_points',
      'points_multiplier',
    ]),
  );
}

/**
 * Generates and writes `options.users` users with wallets, points, referrals and NFT stakes into
 * a migrated database, then recomputes the stored ranks.
 *
 * @returns the number of users written.
 * @throws the database errors of the writes (the batches before stay written; e.g. a unique
 *         violation when a generated username or wallet is already there), and those of
 *         {@link recomputeRanks}.
 */
export async function seedUsers(db: Session, rng: Rng, options: SeedUsersOptions): Promise<number> {
  const suffix = options.usernameSuffix ?? DEFAULT_USERNAME_SUFFIX;
  const users = generateUsers(rng, options.users, suffix);
  const createdAt = options.now ?? new Date();
  const ids: number[] = [];
  for (let start = 0; start < users.length; start += BATCH) {
    const batch = users.slice(start, start + BATCH);
    const idByName = await insertUserBatch(db, batch, createdAt);
    for (const user of batch) ids.push(idByName.get(user.username) ?? Number.NaN);
  }
  const walletRows = users.flatMap((user, i) =>
    user.wallets.map((wallet) => ({ userId: ids[i] ?? Number.NaN, wallet })),
  );
  for (let start = 0; start < walletRows.length; start += BATCH) {
    await insertWalletBatch(db, walletRows.slice(start, start + BATCH));
  }
  const referrals = users.flatMap((user, i): [number, number][] =>
    user.referrer === undefined ? [] : [[ids[user.referrer] ?? Number.NaN, ids[i] ?? Number.NaN]],
  );
  for (let start = 0; start < referrals.length; start += BATCH) {
    const batch = referrals.slice(start, start + BATCH);
    await db.execute(
      'insert into referrals (referrer_id, referee_id) select * from unnest($1::bigint[], $2::bigint[])',
      [batch.map((r) => r[0]), batch.map((r) => r[1])],
    );
  }
  // Fresh statistics, so the planner uses the rank and trigram indexes right after a bulk load.
  await db.execute('analyze users, user_wallets, wallet_points, referrals');
  await recomputeRanks(db);
  return users.length;
}
