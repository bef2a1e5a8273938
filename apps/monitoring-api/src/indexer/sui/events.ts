/**
 * BCS layouts of the Sui events the indexer reads (docs/indexer.md "Sui and Aptos"), decoded
 * with `@mysten/bcs`. Field order and types as declared in the Move sources:
 * `cashmere_cctp::transfer::CashmereTransfer` (cashmere-prod/contracts-prod
 * `sui/sources/transfer.move`), `token_messenger_minter::deposit_for_burn::DepositForBurn`,
 * `message_transmitter::send_message::MessageSent` and
 * `message_transmitter::receive_message::MessageReceived` (circlefin/sui-cctp). A Move
 * `address` is 32 bytes in BCS.
 */
import { bcs, fromBase64, toHex } from '@mysten/bcs';
import type { Hex } from 'viem';
import type { CashmereTransferFields } from './move-source.js';

const address = bcs.bytes(32).transform({
  output: (bytes): Hex => `0x${toHex(bytes)}`,
});

const CashmereTransfer = bcs.struct('CashmereTransfer', {
  destination_domain: bcs.u32(),
  nonce: bcs.u256(),
  recipient: address,
  solana_owner: address,
  user: address,
  amount: bcs.u64(),
  gas_drop_amount: bcs.u64(),
  fee_is_native: bcs.bool(),
  cctp_nonce: bcs.u256(),
});

const DepositForBurn = bcs.struct('DepositForBurn', {
  nonce: bcs.u64(),
  burn_token: address,
  amount: bcs.u64(),
  depositor: address,
  mint_recipient: address,
  destination_domain: bcs.u32(),
  destination_token_messenger: address,
  destination_caller: address,
});

const MessageSent = bcs.struct('MessageSent', { message: bcs.byteVector() });

const MessageReceived = bcs.struct('MessageReceived', {
  caller: address,
  source_domain: bcs.u32(),
  nonce: bcs.u64(),
  sender: address,
  message_body: bcs.byteVector(),
});

/**
 * A `CashmereTransfer` from its BCS bytes (base64, as Sui GraphQL's `MoveValue.bcs`).
 *
 * @throws when the bytes do not hold the layout.
 */
export function decodeCashmereTransfer(base64: string): CashmereTransferFields {
  const v = CashmereTransfer.parse(fromBase64(base64));
  return {
    destination_domain: v.destination_domain,
    nonce: BigInt(v.nonce),
    recipient: v.recipient,
    solana_owner: v.solana_owner,
    user: v.user,
    amount: BigInt(v.amount),
    gas_drop_amount: BigInt(v.gas_drop_amount),
    fee_is_native: v.fee_is_native,
    cctp_nonce: BigInt(v.cctp_nonce),
  };
}

/**
 * The burned amount and nonce of a `DepositForBurn` (base64 BCS).
 *
 * @throws when the bytes do not hold the layout.
 */
export function decodeDepositForBurn(base64: string): { amount: bigint; nonce: bigint } {
  const v = DepositForBurn.parse(fromBase64(base64));
  return { amount: BigInt(v.amount), nonce: BigInt(v.nonce) };
}

/**
 * The message of a `MessageSent` (base64 BCS), 0x hex.
 *
 * @throws when the bytes do not hold the layout.
 */
export function decodeMessageSent(base64: string): Hex {
  return `0x${toHex(MessageSent.parse(fromBase64(base64)).message)}`;
}

/**
 * A `MessageReceived` (base64 BCS): source domain, u64 nonce, message body (0x hex).
 *
 * @throws when the bytes do not hold the layout.
 */
export function decodeMessageReceived(base64: string): {
  sourceDomain: number;
  nonce: bigint;
  messageBody: Hex;
} {
  const v = MessageReceived.parse(fromBase64(base64));
  return {
    sourceDomain: v.source_domain,
    nonce: BigInt(v.nonce),
    messageBody: `0x${toHex(v.message_body)}`,
  };
}
