/**
 * Operator commands (src/users/operator.ts) on a real database: create with a first wallet,
 * referrer set once, NFT stakes and multipliers loaded, an import file applied, and every refusal
 * named.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  OperatorError,
  parseImportFile,
  parseOperatorArgs,
  runOperatorCommand,
} from '../../src/users/operator.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const EVM_A = '0x00000000000000000000000000000000000000a1';
const EVM_B = '0x00000000000000000000000000000000000000b2';
const run = (args: string[]) => runOperatorCommand(db.database, parseOperatorArgs(args), '.ctss');

describe('operator commands', () => {
  it('when users are created, referred and loaded, then the rows say so and refusals are named', async () => {
    expect(await run(['create', 'Oper-One.ctss', 'evm', EVM_A])).toMatch(/^created oper-one\.ctss/);
    await run(['create', 'oper-two.ctss', 'evm', EVM_B]);
    await expect(run(['create', 'oper-one.ctss', 'evm', EVM_B])).rejects.toThrow(OperatorError);
    await expect(run(['create', '\u0430dmin.ctss', 'evm', EVM_B])).rejects.toThrow(
      'username: a new name',
    );
    const one = await db.knex.raw<{ rows: { ref_code: string }[] }>(
      "select ref_code from users where username = 'oper-one.ctss'",
    );
    const code = one.rows[0]!.ref_code;
    await run(['set-referrer', 'oper-two.ctss', code]);
    await expect(run(['set-referrer', 'oper-two.ctss', code])).rejects.toThrow('set once');
    await expect(run(['set-referrer', 'oper-one.ctss', code])).rejects.toThrow('refer itself');
    await run(['set-nfts', 'oper-two.ctss', '2', '1', '150', '1.5']);
    await db.knex.raw(
      "insert into wallet_points (chain_type, address_key, swap_points_mainnet) values ('evm', ?, 10)",
      [EVM_B],
    );
    await run(['set-multiplier', 'evm', EVM_B, '3']);
    const rows = await db.knex.raw<{
      rows: {
        staked_op_nfts: number;
        nft_points: number;
        domain_multiplier: number;
        total: number;
      }[];
    }>(
      `select u.staked_op_nfts, u.nft_points, u.domain_multiplier, p.total_points_multiplied_mainnet as total
         from users u join user_wallets w on w.user_id = u.id
         join wallet_points p on p.chain_type = w.chain_type and p.address_key = w.address_key
        where u.username = 'oper-two.ctss'`,
    );
    expect(rows.rows[0]).toEqual({
      staked_op_nfts: 2,
      nft_points: 150,
      domain_multiplier: 1.5,
      total: 30,
    });
    expect(() => parseOperatorArgs(['set-nfts', 'x.ctss', '-1', '0', '0'])).toThrow(OperatorError);
    expect(() => parseOperatorArgs(['nope'])).toThrow('usage:');
  });

  it('when an import file has a bad line, then it names the line', () => {
    const good =
      '{"command":"set-nfts","username":"a.ctss","staked_op_nfts":1,"staked_eth_nfts":0,"nft_points":5}';
    expect(parseImportFile(`${good}\n\n${good}\n`)).toHaveLength(2);
    expect(() => parseImportFile(`${good}\n{"command":"fly"}`)).toThrow('line 2');
  });
});
