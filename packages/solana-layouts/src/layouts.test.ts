/**
 * Pins the Solana layouts against the published programs:
 *
 * - the transfer program's IDL (cashmere-prod/cashmere-agent-sdk
 *   `src/chains/cashmere_cctp_idl.json`, program `5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM`):
 *   the `transfer`, `transfer_v2` and `TransferEvent` discriminators; the `TransferEvent` field
 *   order of cashmere-prod/contracts-prod `solana/programs/cashmere_cctp/src/events.rs`
 *   (165 bytes of Borsh) and the argument order of `lib.rs`;
 * - Circle's IDLs (circlefin/solana-cctp-contracts `examples/target/idl/`
 *   `message_transmitter_031.json`, `message_transmitter_v2.json`,
 *   `token_messenger_minter_031.json`, `token_messenger_minter_v2.json`): the discriminators of
 *   `MessageSent`, `UsedNonces`, `UsedNonce`, `MessageReceived`, `MintAndWithdraw`,
 *   `DepositForBurn`, `receive_message`, `send_message`, `deposit_for_burn`,
 *   `handle_receive_message` and `handle_receive_finalized_message`, and the field lists of
 *   `MessageSent` (v1 without, v2 with `created_at i64`), `UsedNonces` (`remote_domain u32`,
 *   `first_nonce u64`, `used_nonces [u64; 100]`), `UsedNonce` (`is_used bool`) and
 *   `ReceiveMessageParams` (`message bytes`, `attestation bytes`);
 * - Anchor's event tag (0x1d9acb512ea545e4, the big-endian reading of sha256("anchor:event")[..8],
 *   written little-endian);
 * - the used-nonce seeds of `receive_message.rs` and `state.rs` (`UsedNonces::first_nonce`,
 *   `used_nonces_seed_delimiter`: "-" for source domains >= 11).
 */
import { describe, expect, it } from '@jest/globals';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { address, getProgramDerivedAddress } from '@solana/kit';
import {
  DISCRIMINATORS,
  EVENT_IX_TAG,
  anchorDiscriminator,
  firstNonceOf,
  messageSentV1Codec,
  messageSentV2Codec,
  receiveMessageParamsCodec,
  transferArgsCodec,
  transferEventCodec,
  transferV2ArgsCodec,
  usedNonceAddress,
  usedNonceV2Codec,
  usedNoncesV1Codec,
} from './index.js';

const MT_V1 = 'CCTPmbSD7gX1bxKPAmg77w8oFzNFpaQiQUWD43TKaecd';
const MT_V2 = 'CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC';
const bytes = (d: ArrayLike<number>) => Array.from(d);

describe('Solana layouts', () => {
  it('have the discriminators of the published IDLs', () => {
    expect(bytes(DISCRIMINATORS.transfer)).toEqual([163, 52, 200, 231, 140, 3, 69, 186]);
    expect(bytes(DISCRIMINATORS.transferV2)).toEqual([119, 40, 6, 235, 234, 221, 248, 49]);
    expect(bytes(DISCRIMINATORS.transferEvent)).toEqual([100, 10, 46, 113, 8, 28, 179, 125]);
    expect(bytes(DISCRIMINATORS.messageSent)).toEqual([131, 100, 133, 56, 166, 225, 151, 60]);
    expect(bytes(DISCRIMINATORS.messageReceived)).toEqual([231, 68, 47, 77, 173, 241, 157, 166]);
    expect(bytes(DISCRIMINATORS.mintAndWithdraw)).toEqual([75, 67, 229, 70, 162, 126, 0, 71]);
    expect(bytes(DISCRIMINATORS.receiveMessage)).toEqual([38, 144, 127, 225, 31, 225, 238, 25]);
  });

  it("derive the other discriminators the devnet writes as Circle's IDLs list them", () => {
    const cases: [Parameters<typeof anchorDiscriminator>, number[]][] = [
      [
        ['account', 'UsedNonces'],
        [60, 112, 18, 72, 138, 181, 100, 138],
      ],
      [
        ['account', 'UsedNonce'],
        [212, 222, 157, 252, 130, 71, 179, 238],
      ],
      [
        ['event', 'DepositForBurn'],
        [144, 252, 145, 146, 6, 74, 167, 235],
      ],
      [
        ['global', 'send_message'],
        [57, 40, 34, 178, 189, 10, 65, 26],
      ],
      [
        ['global', 'deposit_for_burn'],
        [215, 60, 61, 46, 114, 55, 128, 176],
      ],
      [
        ['global', 'handle_receive_message'],
        [133, 102, 1, 180, 145, 11, 138, 180],
      ],
      [
        ['global', 'handle_receive_finalized_message'],
        [186, 252, 239, 70, 86, 180, 110, 95],
      ],
    ];
    for (const [[namespace, name], expected] of cases) {
      expect(bytes(anchorDiscriminator(namespace, name))).toEqual(expected);
    }
  });

  it("uses Anchor's event tag for emit_cpi events", () => {
    // The u64 whose big-endian bytes are sha256("anchor:event")[..8], written little-endian.
    expect(bytes(EVENT_IX_TAG)).toEqual(
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
      cctp_message: address(MT_V2),
    };
    const encoded = transferEventCodec.encode(event);
    expect(encoded.length).toBe(4 + 8 + 32 + 32 + 32 + 8 + 8 + 1 + 8 + 32);
    // destination_domain u32 LE first, then nonce u64 LE; cctp_nonce i64 LE two's complement.
    expect(bytes(encoded.slice(0, 6))).toEqual([6, 0, 0, 0, 42, 0]);
    expect(Buffer.from(encoded.slice(125, 133)).readBigInt64LE()).toBe(-2n);
    expect(transferEventCodec.decode(encoded)).toEqual(event);
  });

  it('encodes the transfer arguments in the order of lib.rs, v2 with two more', () => {
    const args = {
      usdc_amount: 1_000_000n,
      destination_domain: 3,
      recipient: new Uint8Array(32).fill(2),
      solana_owner: new Uint8Array(32),
      fee: 5n,
      deadline: 1_800_000_000n,
      gas_drop_amount: 0n,
      fee_is_native: false,
    };
    const v1 = transferArgsCodec.encode(args);
    expect(v1.length).toBe(8 + 4 + 32 + 32 + 8 + 8 + 8 + 1);
    const v2 = transferV2ArgsCodec.encode({ ...args, max_fee: 7n, min_finality_threshold: 1000 });
    expect(v2.length).toBe(v1.length + 8 + 4);
    expect(bytes(v2.slice(0, v1.length))).toEqual(bytes(v1));
    expect(Buffer.from(v2).readUInt32LE(v1.length + 8)).toBe(1000);
    // Each version has its own type: v2 without its two fields does not compile (and throws),
    // and a decoded v1 has no v2 field.
    // @ts-expect-error max_fee and min_finality_threshold are required by transfer_v2
    expect(() => transferV2ArgsCodec.encode(args)).toThrow();
    const decoded = transferArgsCodec.decode(v1);
    expect(decoded).toEqual(args);
    // @ts-expect-error a transfer (v1) has no max_fee
    expect(decoded.max_fee).toBeUndefined();
    expect(transferV2ArgsCodec.decode(v2)).toEqual({
      ...args,
      max_fee: 7n,
      min_finality_threshold: 1000,
    });
  });

  it('reads MessageSent of v1 without and of v2 with created_at', () => {
    const rent_payer = address(MT_V1);
    const message = Uint8Array.from([1, 2, 3]);
    const v1 = messageSentV1Codec.encode({ rent_payer, message });
    expect(v1.length).toBe(32 + 4 + 3);
    expect(bytes(v1.slice(32))).toEqual([3, 0, 0, 0, 1, 2, 3]);
    const v2 = messageSentV2Codec.encode({ rent_payer, created_at: 1_700_000_000n, message });
    expect(v2.length).toBe(32 + 8 + 4 + 3);
    expect(Buffer.from(v2).readBigInt64LE(32)).toBe(1_700_000_000n);
    expect(messageSentV2Codec.decode(v2)).toEqual({
      rent_payer,
      created_at: 1_700_000_000n,
      message,
    });
  });

  it('writes the receive_message parameters and the used-nonce accounts', () => {
    const params = receiveMessageParamsCodec.encode({
      message: new Uint8Array(2),
      attestation: new Uint8Array(65),
    });
    expect(params.length).toBe(4 + 2 + 4 + 65);
    const usedNonces = usedNoncesV1Codec.encode({
      remote_domain: 0,
      first_nonce: 6401n,
      used_nonces: Array.from({ length: 100 }, (_, i) => (i === 0 ? 1n : 0n)),
    });
    // remote_domain u32, first_nonce u64, used_nonces [u64; 100]: 812 bytes (INIT_SPACE).
    expect(usedNonces.length).toBe(4 + 8 + 800);
    expect(Buffer.from(usedNonces).readBigUInt64LE(4)).toBe(6401n);
    expect(bytes(usedNonceV2Codec.encode({ is_used: true }))).toEqual([1]);
  });

  it("derives the used-nonce accounts with receive_message's seeds", async () => {
    expect(firstNonceOf(1n)).toBe(1n);
    expect(firstNonceOf(6400n)).toBe(1n);
    expect(firstNonceOf(6401n)).toBe(6401n);
    const pda = async (program: string, seeds: (string | Uint8Array)[]) =>
      (await getProgramDerivedAddress({ programAddress: address(program), seeds }))[0];
    expect(await usedNonceAddress(MT_V1, { version: 1, sourceDomain: 0, nonce: 7000n })).toBe(
      await pda(MT_V1, ['used_nonces', '0', '6401']),
    );
    expect(await usedNonceAddress(MT_V1, { version: 1, sourceDomain: 11, nonce: 3n })).toBe(
      await pda(MT_V1, ['used_nonces', '11', '-', '1']),
    );
    const nonce = new Uint8Array(32).fill(9);
    expect(await usedNonceAddress(MT_V2, { version: 2, nonce })).toBe(
      await pda(MT_V2, ['used_nonce', nonce]),
    );
    await expect(
      usedNonceAddress(MT_V2, { version: 2, nonce: new Uint8Array(31) }),
    ).rejects.toThrow(RangeError);
  });
});
