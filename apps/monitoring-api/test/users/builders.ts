/**
 * Small builders for users-module test data, written straight to the tables (the API has no
 * endpoint that creates users or points; those come from the points pipeline).
 */
import type { ChainType } from '@ctss/domain-types';
import type { Knex } from 'knex';
import { parseWalletAddress } from '../../src/users/address.js';

/** Fields of a user row the tests set. */
export interface UserSpec {
  username: string;
  ref_code?: string;
  domain_multiplier?: number;
  staked_op_nfts?: number;
  staked_eth_nfts?: number;
  nft_points?: number;
}

/** Inserts a user; returns its id. */
export async function insertUser(knex: Knex, spec: UserSpec): Promise<number> {
  const result = await knex.raw<{ rows: { id: string }[] }>(
    `insert into users (username, ref_code, domain_multiplier, staked_op_nfts, staked_eth_nfts, nft_points)
     values (?, ?, ?, ?, ?, ?) returning id`,
    [
      spec.username,
      spec.ref_code ?? `ref-${spec.username}`.slice(0, 32),
      spec.domain_multiplier ?? 1,
      spec.staked_op_nfts ?? 0,
      spec.staked_eth_nfts ?? 0,
      spec.nft_points ?? 0,
    ],
  );
  return Number(result.rows[0]?.id);
}

/** Points of one wallet; multiplied totals default to points x multiplier. */
export interface PointsSpec {
  swap_points?: number;
  swap_points_mainnet?: number;
  testnet_points?: number;
  points_multiplier?: number;
}

function keyOf(chainType: ChainType, address: string): { key: string; display: string } {
  const wallet = parseWalletAddress(chainType, address);
  if (!wallet) throw new Error(`bad test address ${address}`);
  return wallet;
}

/** Binds a wallet to a user (and optionally gives it points). */
export async function bindTestWallet(
  knex: Knex,
  userId: number,
  chainType: ChainType,
  address: string,
  points?: PointsSpec,
): Promise<void> {
  const { key, display } = keyOf(chainType, address);
  await knex.raw(
    'insert into user_wallets (user_id, chain_type, address, address_key) values (?, ?, ?, ?)',
    [userId, chainType, display, key],
  );
  if (points) await setWalletPoints(knex, chainType, address, points);
}

/** Upserts the points of a wallet. */
export async function setWalletPoints(
  knex: Knex,
  chainType: ChainType,
  address: string,
  points: PointsSpec,
): Promise<void> {
  const { key } = keyOf(chainType, address);
  const multiplier = points.points_multiplier ?? 1;
  const testnet = points.swap_points ?? 0;
  const mainnet = points.swap_points_mainnet ?? 0;
  await knex.raw(
    `insert into wallet_points (chain_type, address_key, swap_points, swap_points_mainnet, testnet_points,
                                points_multiplier, total_points_multiplied, total_points_multiplied_mainnet)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (chain_type, address_key) do update set
       swap_points = excluded.swap_points, swap_points_mainnet = excluded.swap_points_mainnet,
       testnet_points = excluded.testnet_points, points_multiplier = excluded.points_multiplier,
       total_points_multiplied = excluded.total_points_multiplied,
       total_points_multiplied_mainnet = excluded.total_points_multiplied_mainnet`,
    [
      chainType,
      key,
      testnet,
      mainnet,
      points.testnet_points ?? 0,
      multiplier,
      testnet * multiplier,
      mainnet * multiplier,
    ],
  );
}

/** Records that `refereeId` was referred by `referrerId`. */
export async function refer(knex: Knex, referrerId: number, refereeId: number): Promise<void> {
  await knex.raw('insert into referrals (referrer_id, referee_id) values (?, ?)', [
    referrerId,
    refereeId,
  ]);
}

/** A deterministic EVM address for test number `n`. */
export function evmAddress(n: number): string {
  return `0x${n.toString(16).padStart(40, '0')}`;
}
