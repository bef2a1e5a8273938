/**
 * Operator commands on users (docs/decisions.md "D154. Operator-loaded user data"; run through
 * `node dist/bin/users.js`): create a user with its first wallet, set a referrer once, load NFT
 * stakes and the domain multiplier, set a wallet's points multiplier, or apply a JSON-lines file of
 * these commands in one transaction. Every command runs on the primary database.
 */
import { ChainType } from '@ctss/domain-types';
import type { Session } from '../db/statements.js';
import { z } from 'zod';
import { parseWalletAddress, type WalletAddress } from './address.js';
import { createUserWithWallet, findUserByUsername } from './repository.js';
import { claimableUsername, newRefCode } from './usernames.js';

/** A refused command (bad arguments, unknown user, a referrer already set). */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

const count = z.coerce.number().int().min(0).max(1_000_000);
const factor = z.coerce.number().min(0).max(1_000_000);

/** One command, as in an import file line (`{"command":"set-nfts","username":...}`). */
export const OperatorCommand = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('create'),
    username: z.string(),
    chain_type: ChainType,
    address: z.string(),
  }),
  z.object({ command: z.literal('set-referrer'), username: z.string(), referrer: z.string() }),
  z.object({
    command: z.literal('set-nfts'),
    username: z.string(),
    staked_op_nfts: count,
    staked_eth_nfts: count,
    nft_points: factor,
    domain_multiplier: factor.optional(),
  }),
  z.object({
    command: z.literal('set-multiplier'),
    chain_type: ChainType,
    address: z.string(),
    multiplier: factor,
  }),
]);
export type OperatorCommand = z.output<typeof OperatorCommand>;

function walletOf(chainType: ChainType, address: string): WalletAddress {
  const wallet = parseWalletAddress(chainType, address);
  if (!wallet) throw new OperatorError(`not a valid ${chainType} address: ${address}`);
  return wallet;
}

async function userId(db: Session, username: string): Promise<number> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new OperatorError(`no user named ${username}`);
  return user.id;
}

/**
 * Runs one command on `db` (a database handle or a transaction).
 *
 * @param suffix USERNAME_SUFFIX, for `create`.
 * @returns a one-line description of what changed.
 * @throws OperatorError for refused commands; database errors.
 */
export async function runOperatorCommand(
  db: Session,
  command: OperatorCommand,
  suffix: string,
): Promise<string> {
  switch (command.command) {
    case 'create': {
      const claim = claimableUsername(command.username, suffix);
      if (!claim.ok) throw new OperatorError(claim.reason);
      const created = await createUserWithWallet(
        db,
        claim.username,
        walletOf(command.chain_type, command.address),
        newRefCode,
      );
      if (created.outcome !== 'created')
        throw new OperatorError(`${claim.username}: ${created.outcome.replace('_', ' ')}`);
      return `created ${created.user.username} (ref_code ${created.user.ref_code})`;
    }
    case 'set-referrer': {
      const referee = await userId(db, command.username);
      const referrer = await db.execute<{ id: string }>(
        'select id from users where ref_code = $1',
        [command.referrer],
      );
      const referrerId = Number(referrer.rows[0]?.id ?? NaN);
      if (!Number.isFinite(referrerId))
        throw new OperatorError(`no user with ref_code ${command.referrer}`);
      if (referrerId === referee) throw new OperatorError('a user cannot refer itself');
      const inserted = await db.execute(
        'insert into referrals (referee_id, referrer_id) values ($1, $2) on conflict (referee_id) do nothing',
        [referee, referrerId],
      );
      if ((inserted.rowCount ?? 0) === 0)
        throw new OperatorError(`${command.username} already has a referrer (set once)`);
      return `referrer of ${command.username} set`;
    }
    case 'set-nfts': {
      const id = await userId(db, command.username);
      await db.execute(
        `update users set staked_op_nfts = $1, staked_eth_nfts = $2, nft_points = $3,
                domain_multiplier = coalesce($4, domain_multiplier) where id = $5`,
        [
          command.staked_op_nfts,
          command.staked_eth_nfts,
          command.nft_points,
          command.domain_multiplier ?? null,
          id,
        ],
      );
      return `nft stakes of ${command.username} set`;
    }
    case 'set-multiplier': {
      const wallet = walletOf(command.chain_type, command.address);
      await db.execute(
        `insert into wallet_points as p (chain_type, address_key, points_multiplier)
         values ($1, $2, $3)
         on conflict (chain_type, address_key) do update
            set points_multiplier = excluded.points_multiplier,
                total_points_multiplied = p.swap_points * excluded.points_multiplier,
                total_points_multiplied_mainnet = p.swap_points_mainnet * excluded.points_multiplier,
                updated_at = now()`,
        [wallet.chainType, wallet.key, command.multiplier],
      );
      return `points multiplier of ${wallet.chainType} ${wallet.display} set`;
    }
  }
}

/**
 * Parses the command line of `users.js` (`create <username> <chain_type> <address>`,
 * `set-referrer <username> <referrer_ref_code>`, `set-nfts <username> <op> <eth> <nft_points>
 * [domain_multiplier]`, `set-multiplier <chain_type> <address> <multiplier>`).
 *
 * @throws OperatorError with the usage for anything else.
 */
export function parseOperatorArgs(args: readonly string[]): OperatorCommand {
  const [name, ...rest] = args;
  const fields: Record<string, string[]> = {
    create: ['username', 'chain_type', 'address'],
    'set-referrer': ['username', 'referrer'],
    'set-nfts': [
      'username',
      'staked_op_nfts',
      'staked_eth_nfts',
      'nft_points',
      'domain_multiplier',
    ],
    'set-multiplier': ['chain_type', 'address', 'multiplier'],
  };
  const names = name ? fields[name] : undefined;
  if (!names) throw new OperatorError(USAGE);
  const object: Record<string, string> = { command: name! };
  names.forEach((field, i) => {
    if (rest[i] !== undefined) object[field] = rest[i]!;
  });
  const parsed = OperatorCommand.safeParse(object);
  if (!parsed.success) {
    throw new OperatorError(
      `${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n${USAGE}`,
    );
  }
  return parsed.data;
}

/** Parses an import file: one JSON command per non-empty line. @throws OperatorError naming the line. */
export function parseImportFile(text: string): OperatorCommand[] {
  return text
    .split('\n')
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line !== '')
    .map(([line, n]) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new OperatorError(`line ${n}: not JSON`);
      }
      const parsed = OperatorCommand.safeParse(json);
      if (!parsed.success) {
        throw new OperatorError(
          `line ${n}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
      return parsed.data;
    });
}

/** Usage text of `users.js`. */
export const USAGE = `usage: node dist/bin/users.js <command>
  create <username> <chain_type> <address>
  set-referrer <username> <referrer_ref_code>
  set-nfts <username> <staked_op_nfts> <staked_eth_nfts> <nft_points> [domain_multiplier]
  set-multiplier <chain_type> <address> <multiplier>
  import <file.jsonl>   one {"command": ...} object per line, applied in one transaction`;
