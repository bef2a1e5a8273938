/**
 * Pins the Solana layouts against the published programs: the discriminators listed in the
 * transfer program's IDL (cashmere-prod/cashmere-agent-sdk `src/chains/cashmere_cctp_idl.json`,
 * program `5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM`: `transfer`, `transfer_v2`,
 * `TransferEvent`) and in Circle's IDLs (circlefin/solana-cctp-contracts
 * `examples/target/idl/message_transmitter_v2.json` and `token_messenger_minter_v2.json`:
 * `MessageSent`, `MessageReceived`, `MintAndWithdraw`, `receive_message`), Anchor's event tag
 * (0x1d9acb512ea545e4, the big-endian reading of sha256("anchor:event")[..8], written
 * little-endian), and the `TransferEvent`
 * field order of `solana/programs/cashmere_cctp/src/events.rs` (165 bytes of Borsh).
 */
import { describe, expect, it } from '@jest/globals';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { address } from '@solana/kit';
import { DISCRIMINATORS, EVENT_IX_TAG, transferEventCodec } from './layouts.js';

describe('Solana layouts', () => {
  it('have the discriminators of the published IDLs', () => {
    expect([...DISCRIMINATORS.transfer]).toEqual([163, 52, 200, 231, 140, 3, 69, 186]);
    expect([...DISCRIMINATORS.transferV2]).toEqual([119, 40, 6, 235, 234, 221, 248, 49]);
    expect([...DISCRIMINATORS.transferEvent]).toEqual([100, 10, 46, 113, 8, 28, 179, 125]);
    expect([...DISCRIMINATORS.messageSent]).toEqual([131, 100, 133, 56, 166, 225, 151, 60]);
    expect([...DISCRIMINATORS.messageReceived]).toEqual([231, 68, 47, 77, 173, 241, 157, 166]);
    expect([...DISCRIMINATORS.mintAndWithdraw]).toEqual([75, 67, 229, 70, 162, 126, 0, 71]);
    expect([...DISCRIMINATORS.receiveMessage]).toEqual([38, 144, 127, 225, 31, 225, 238, 25]);
  });

  it("uses Anchor's event tag for emit_cpi events", () => {
    // The u64 whose big-endian bytes are sha256("anchor:event")[..8], written little-endian.
    expect([...EVENT_IX_TAG]).toEqual(
      [...sha256(utf8ToBytes('anchor:event')).slice(0, 8)].reverse(),
    );
    expect(Buffer.from(EVENT_IX_TAG).readBigUInt64LE()).toBe(0x1d9acb512ea545e4n);
  });

  it('decodes TransferEvent in the program order of its fields', () => {
    const event = {
      destination_domain: 6,
      nonce: 42n,
      recipient: new Uint8Array(32).fill(1),
      solana_owner: new Uint8Array(32),
      user: address('5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM'),
      amount: 1_234_567n,
      gas_drop_amount: 9n,
      fee_is_native: true,
      cctp_nonce: -2n,
      cctp_message: address('CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC'),
    };
    const bytes = transferEventCodec.encode(event);
    expect(bytes.length).toBe(4 + 8 + 32 + 32 + 32 + 8 + 8 + 1 + 8 + 32);
    // destination_domain u32 LE first, then nonce u64 LE; cctp_nonce i64 LE two's complement.
    expect([...bytes.slice(0, 6)]).toEqual([6, 0, 0, 0, 42, 0]);
    expect(Buffer.from(bytes.slice(125, 133)).readBigInt64LE()).toBe(-2n);
    expect(transferEventCodec.decode(bytes)).toEqual(event);
  });
});
