/**
 * The two network enums of the Monitoring API, one per thing they name (docs/api.md
 * "Transaction feeds", "Leaderboard"). They are not one enum: a transfer record belongs to
 * `mainnet` or `testnet`, while the leaderboard ranks points of `mainnet` or `devnet` (the points
 * of the development program, stored in their own columns).
 */
import { z } from '../zod.js';

/**
 * The network a transfer record belongs to (`transactions.network`, the indexer's chain
 * `network`): `mainnet` is served by `/transactionsmainnet` and the mainnet statistics,
 * `testnet` (testnet and staging chains) by `/transactions` and `/stats/wallets`.
 */
export const TransferNetwork = z.enum(['mainnet', 'testnet']);
export type TransferNetwork = z.infer<typeof TransferNetwork>;

/**
 * The network of leaderboard points and ranks (`GET /users/leaderboard?network=`, the
 * `*_mainnet` and devnet columns of `users`).
 */
export const LeaderboardNetwork = z.enum(['mainnet', 'devnet']);
export type LeaderboardNetwork = z.infer<typeof LeaderboardNetwork>;
