/** Leaderboard, user, wallet-points, domain-aggregate and binding schemas. Source: docs/api.md "Leaderboard",
 * "Users by wallet or username" and "Wallet binding". */
import { z } from '../zod.js';
import { IsoTimestamp } from './primitives.js';

/** Chain types a wallet can be bound on (docs/api.md "Wallet binding"). */
export const ChainType = z.enum(['evm', 'solana', 'sui', 'aptos']);
export type ChainType = z.infer<typeof ChainType>;

/** A user's public names: the unique username and the referral code. */
const userNames = { username: z.string(), ref_code: z.string() };

/** A user's id and public names, the first fields of a leaderboard row and of a user record. */
const UserIdentity = z.object({ user_id: z.number().int(), ...userNames });

/** A wallet (address as given, chain type) and its swap points: the first fields of every
 * per-wallet points object. */
const WalletSwapPoints = z.object({
  address: z.string(),
  chain_type: z.string(),
  swap_points: z.number(),
});

/** A wallet's points multiplier and its points multiplied by it (floats). */
const multipliedPoints = { points_multiplier: z.number(), total_points_multiplied: z.number() };

/** One leaderboard row; point fields are floats (database aggregates). */
export const LeaderboardEntry = UserIdentity.extend({
  total_base_points: z.number(),
  domain_multiplier: z.number(),
  domain_total_multiplied_points: z.number(),
  referral_points: z.number(),
  total_points_with_referrals: z.number(),
  staked_op_nfts: z.number().int(),
  staked_eth_nfts: z.number().int(),
  wallet_count: z.number().int(),
  domain_rank: z.number().int().nullable(),
}).openapi('LeaderboardEntry');
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** A leaderboard page; `limit` echoes the effective (clamped) limit. */
export const LeaderboardPage = z
  .object({
    leaderboard: z.array(LeaderboardEntry),
    total_count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    has_more: z.boolean(),
  })
  .openapi('LeaderboardPage');
export type LeaderboardPage = z.infer<typeof LeaderboardPage>;

/** Points of one wallet, in the `?wallets=` query. */
export const WalletPointsRecord = WalletSwapPoints.extend({
  swap_points_mainnet: z.number(),
  ...multipliedPoints,
  total_points_multiplied_mainnet: z.number(),
}).openapi('WalletPointsRecord');
export type WalletPointsRecord = z.infer<typeof WalletPointsRecord>;

/** A user with their wallets, in the `?wallets=` query. */
export const UserRecord = UserIdentity.extend({
  wallets: z.array(WalletPointsRecord),
  max_multiplier: z.number(),
  testnet_points: z.number(),
  nft_points: z.number(),
  swap_points: z.number(),
}).openapi('UserRecord');
export type UserRecord = z.infer<typeof UserRecord>;

/** Response of `GET /users?wallets=`. */
export const WalletsQueryResponse = z
  .object({ ...userNames, users: z.array(UserRecord) })
  .openapi('WalletsQueryResponse');
export type WalletsQueryResponse = z.infer<typeof WalletsQueryResponse>;

/** Per-chain object of the domain aggregate (sol, and the base of evm). */
export const DomainChainPoints = WalletSwapPoints.extend({
  testnet_points: z.number(),
  ...multipliedPoints,
}).openapi('DomainChainPoints');
export type DomainChainPoints = z.infer<typeof DomainChainPoints>;

/** The evm per-chain object carries mainnet points and NFT stakes too. */
export const DomainEvmPoints = DomainChainPoints.extend({
  swap_points_mainnet: z.number(),
  total_points_multiplied_mainnet: z.number(),
  staked_eth_nfts: z.number().int(),
  staked_op_nfts: z.number().int(),
  nft_points: z.number(),
}).openapi('DomainEvmPoints');
export type DomainEvmPoints = z.infer<typeof DomainEvmPoints>;

/** Wallets bound per chain; an unbound chain is the empty string. */
export const BindedWallets = z.object({
  evm: z.string(),
  sol: z.string(),
  apt: z.string(),
  sui: z.string(),
});
export type BindedWallets = z.infer<typeof BindedWallets>;

/** Response of `GET /users?domains=`. `evm`/`sol` are present only for a bound chain. */
export const DomainAggregate = z
  .object({
    ...userNames,
    binded_wallets: BindedWallets,
    leaderboard_rank_mainnet: z.number().int(),
    leaderboard_rank_devnet: z.number().int(),
    domain_total_multiplied_points_mainnet: z.number(),
    domain_total_multiplied_points: z.number(),
    evm: DomainEvmPoints.optional(),
    sol: DomainChainPoints.optional(),
  })
  .openapi('DomainAggregate');
export type DomainAggregate = z.infer<typeof DomainAggregate>;

/**
 * Response of `GET /users/messages`: the one-time nonce, its expiry and the exact
 * text to sign, `Wallet binding request: <username>\nNonce: <nonce>`
 * (docs/decisions.md "D11. Binding message and nonce rules").
 */
export const BindingNonce = z
  .object({ nonce: z.string(), expires_at: IsoTimestamp, message: z.string() })
  .openapi('BindingNonce');
export type BindingNonce = z.infer<typeof BindingNonce>;

/**
 * A second signature of the binding message by a wallet already bound to the username
 * (docs/api.md "Wallet binding"): required to bind a wallet to a username that has wallets.
 * `message` is the exact text that wallet signed when it differs from the request's (an Aptos
 * full-message envelope); its binding text must be the issued message.
 */
export const BindingAuthorizer = z
  .object({
    address: z.string().min(1).max(128),
    chain_type: ChainType,
    signature: z.string().min(1).max(4096),
    public_key: z.string().max(512).optional(),
    message: z.string().min(1).max(2048).optional(),
  })
  .strict()
  .openapi('BindingAuthorizer');
export type BindingAuthorizer = z.infer<typeof BindingAuthorizer>;

/** Body of `POST /users/verify`. */
export const VerifyRequest = z
  .object({
    username: z.string().min(1).max(100),
    address: z.string().min(1).max(128),
    chain_type: ChainType,
    type: z.enum(['bind', 'unbind']),
    signature: z.string().min(1).max(4096),
    public_key: z.string().max(512).optional(),
    message: z.string().min(1).max(2048),
    authorizer: BindingAuthorizer.optional(),
  })
  .openapi('VerifyRequest');
export type VerifyRequest = z.infer<typeof VerifyRequest>;

/** Response of `POST /users/verify`. */
export const VerifyResponse = z
  .object({ success: z.literal(true), username: z.string() })
  .openapi('VerifyResponse');
export type VerifyResponse = z.infer<typeof VerifyResponse>;
