/**
 * Recipient encoding per destination family, the Solana associated token account checked against
 * the output of @solana/spl-token `getAssociatedTokenAddress` (a published run: owner
 * 5waJka9MrCgPFoLo3SQSjLDTGnkoDcwYYPnpk4YNJS6i, devnet USDC mint 4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU
 * -> HmBpVD6N1vuGvQpS8KrwWH6Tr8rSwXQBEDKn5VXW6yyw).
 */
import { describe, expect, it } from '@jest/globals';
import { base58 } from '@scure/base';
import { bytesToHex } from 'viem';
import {
  TransferInputError,
  ZERO_BYTES32,
  associatedTokenAddress,
  encodeRecipient,
} from '../src/index.js';

const OWNER = '5waJka9MrCgPFoLo3SQSjLDTGnkoDcwYYPnpk4YNJS6i';
const DEVNET_MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const SPL_TOKEN_ATA = 'HmBpVD6N1vuGvQpS8KrwWH6Tr8rSwXQBEDKn5VXW6yyw';

describe('encodeRecipient', () => {
  it('left-pads an EVM address to 32 bytes with a zero solanaOwner', () => {
    expect(encodeRecipient(3, '0x00000000000000000000000000000000000C0DE2')).toEqual({
      recipient: `0x${'0'.repeat(24)}00000000000000000000000000000000000c0de2`,
      solanaOwner: ZERO_BYTES32,
    });
  });

  it('derives the Solana associated token account as spl-token does', () => {
    expect(associatedTokenAddress(OWNER, DEVNET_MINT)).toBe(SPL_TOKEN_ATA);
    const encoded = encodeRecipient(5, OWNER, { solanaUsdcMint: DEVNET_MINT });
    expect(encoded.recipient).toBe(bytesToHex(base58.decode(SPL_TOKEN_ATA)));
    expect(encoded.solanaOwner).toBe(bytesToHex(base58.decode(OWNER)));
  });

  it('takes Sui and Aptos addresses as 32 bytes', () => {
    expect(encodeRecipient(8, '0x2').recipient).toBe(`0x${'0'.repeat(63)}2`);
    expect(encodeRecipient(9, `0x${'ab'.repeat(32)}`).recipient).toBe(`0x${'ab'.repeat(32)}`);
  });

  it('refuses an address of the wrong family', () => {
    expect(() => encodeRecipient(3, OWNER)).toThrow(TransferInputError);
    expect(() => encodeRecipient(5, '0x00000000000000000000000000000000000c0de2')).toThrow(
      TransferInputError,
    );
    expect(() => encodeRecipient(8, `0x${'ab'.repeat(33)}`)).toThrow(TransferInputError);
    expect(() => encodeRecipient(4, '0x00000000000000000000000000000000000c0de2')).toThrow(
      /not served/,
    );
  });
});
