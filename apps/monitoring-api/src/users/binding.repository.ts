/**
 * Writes of wallet bindings (run on the primary). The unique constraints of `user_wallets` decide
 * races: of two concurrent binds of one wallet, or of two wallets of one chain to one user, one
 * insert wins and the other fails with 23505, reported as ALREADY_BOUND.
 */
import type { Knex } from 'knex';
import type { WalletAddress } from './address.js';

/** Outcome of {@link bindWallet}. */
export type BindOutcome = 'bound' | 'wallet_taken' | 'chain_taken';

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * Binds `wallet` to user `userId`.
 *
 * @returns `bound`, `wallet_taken` (the wallet is bound to some username, this one included) or
 *          `chain_taken` (the user already has a wallet of that chain type).
 */
export async function bindWallet(
  db: Knex,
  userId: number,
  wallet: WalletAddress,
): Promise<BindOutcome> {
  try {
    await db.raw(
      'insert into user_wallets (user_id, chain_type, address, address_key) values (?, ?, ?, ?)',
      [userId, wallet.chainType, wallet.display, wallet.key],
    );
    return 'bound';
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return err.constraint === 'user_wallets_user_chain_key' ? 'chain_taken' : 'wallet_taken';
  }
}

/** Unbinds `wallet` from user `userId`; false when it was not bound to that user. */
export async function unbindWallet(
  db: Knex,
  userId: number,
  wallet: WalletAddress,
): Promise<boolean> {
  const result = await db.raw<{ rowCount: number | null }>(
    'delete from user_wallets where user_id = ? and chain_type = ? and address_key = ?',
    [userId, wallet.chainType, wallet.key],
  );
  return (result.rowCount ?? 0) > 0;
}
