/**
 * Sui events of the transfer package and of Circle's CCTP packages, serialized with
 * `@mysten/sui`'s bcs as a Sui node writes them (docs/indexer.md "Sui and Aptos"), for the local
 * Sui GraphQL RPC (fake-sui.ts). Layouts: cashmere-prod/contracts-prod
 * `sui/sources/transfer.move` (`CashmereTransfer`), circlefin/sui-cctp `deposit_for_burn.move`
 * (`DepositForBurn`), `send_message.move` (`MessageSent`), `receive_message.move`
 * (`MessageReceived`), fields in declared order.
 */
import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { Hex } from 'viem';
import type { SuiEvent } from './fake-sui.js';
import { v1BurnMessage } from './move-data.js';

/** Package ids of a Sui deployment (`0x` + 64 hex), and the USDC coin's package. */
export interface SuiCctpPackages {
  /** The package of `transfer::CashmereTransfer`. */
  readonly transfer: string;
  /** Circle's TokenMessengerMinter (`deposit_for_burn::DepositForBurn`). */
  readonly tokenMessengerMinter: string;
  /** Circle's MessageTransmitter (`send_message::MessageSent`, `receive_message::MessageReceived`). */
  readonly messageTransmitter: string;
  /** USDC (the burn token). */
  readonly usdc: string;
}

/**
 * The mainnet ids the indexer defaults to (docs/indexer.md "Sui and Aptos"): the transfer
 * package, TokenMessengerMinter and USDC of cashmere-prod/cashmere-agent-sdk `src/constants.ts`,
 * the MessageTransmitter package from Circle's Bridge Kit.
 */
export const SUI_EXAMPLE_PACKAGES: SuiCctpPackages = {
  transfer: normalizeSuiAddress(
    '0xdf37112aacb7d3535f7b3b754b9a7b9fa1a6b3a756288dc734522c603c6f11a4',
  ),
  tokenMessengerMinter: normalizeSuiAddress(
    '0x2aa6c5d56376c371f88a6cc42e852824994993cb9bab8d3e6450cbe3cb32b94e',
  ),
  messageTransmitter: normalizeSuiAddress(
    '0x08d87d37ba49e785dde270a83f8e979605b03dc552b5548f26fdf2f49bf7ed1b',
  ),
  usdc: normalizeSuiAddress('0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'),
};

/** The Move structs as declared, in `@mysten/sui`'s bcs (Sui's own serialization). */
export const SUI_CCTP_LAYOUTS = {
  CashmereTransfer: bcs.struct('CashmereTransfer', {
    destination_domain: bcs.u32(),
    nonce: bcs.u256(),
    recipient: bcs.Address,
    solana_owner: bcs.Address,
    user: bcs.Address,
    amount: bcs.u64(),
    gas_drop_amount: bcs.u64(),
    fee_is_native: bcs.bool(),
    cctp_nonce: bcs.u256(),
  }),
  DepositForBurn: bcs.struct('DepositForBurn', {
    nonce: bcs.u64(),
    burn_token: bcs.Address,
    amount: bcs.u64(),
    depositor: bcs.Address,
    mint_recipient: bcs.Address,
    destination_domain: bcs.u32(),
    destination_token_messenger: bcs.Address,
    destination_caller: bcs.Address,
  }),
  MessageSent: bcs.struct('MessageSent', { message: bcs.vector(bcs.u8()) }),
  MessageReceived: bcs.struct('MessageReceived', {
    caller: bcs.Address,
    source_domain: bcs.u32(),
    nonce: bcs.u64(),
    sender: bcs.Address,
    message_body: bcs.vector(bcs.u8()),
  }),
};

/** A transfer out of Sui (CCTP domain 8). Amounts in USDC base units. */
export interface SuiTransferInput {
  readonly destination: number;
  /** The recipient on the destination (EVM: 20 bytes; up to 32). */
  readonly recipient: Hex;
  /** Circle's TokenMessenger on the destination (the message's recipient). */
  readonly destinationMessenger: Hex;
  /** The sender, a Sui address. */
  readonly user: string;
  /** USDC taken for the transfer, before the fee. */
  readonly amount: bigint;
  /** The fee kept; `amount - fee` is burned. */
  readonly fee: bigint;
  readonly gasDrop?: bigint;
  readonly native?: boolean;
  /** The CCTP v1 message nonce (u64). */
  readonly cctpNonce: bigint;
  /** The transfer package's own counter (u256). */
  readonly transferNonce: bigint;
}

/**
 * The events of one transfer transaction as the two-step deposit emits them: Circle's
 * `MessageSent` and `DepositForBurn`, then `CashmereTransfer` (event index 2), with the v1
 * message and the burned amount.
 */
export function suiTransferEvents(
  p: SuiCctpPackages,
  t: SuiTransferInput,
): { events: SuiEvent[]; message: Hex; burned: bigint } {
  const burned = t.amount - t.fee;
  const { message } = v1BurnMessage({
    source: 8,
    destination: t.destination,
    nonce: t.cctpNonce,
    sender: p.tokenMessengerMinter as Hex,
    recipient: t.destinationMessenger,
    burnToken: p.usdc as Hex,
    mintRecipient: t.recipient,
    amount: burned,
    messageSender: p.transfer as Hex,
  });
  const recipient32 = normalizeSuiAddress(t.recipient);
  const events: SuiEvent[] = [
    {
      type: `${p.messageTransmitter}::send_message::MessageSent`,
      bcs: SUI_CCTP_LAYOUTS.MessageSent.serialize({
        message: [...Buffer.from(message.slice(2), 'hex')],
      }).toBytes(),
    },
    {
      type: `${p.tokenMessengerMinter}::deposit_for_burn::DepositForBurn`,
      bcs: SUI_CCTP_LAYOUTS.DepositForBurn.serialize({
        nonce: t.cctpNonce,
        burn_token: p.usdc,
        amount: burned,
        depositor: p.transfer,
        mint_recipient: recipient32,
        destination_domain: t.destination,
        destination_token_messenger: normalizeSuiAddress(t.destinationMessenger),
        destination_caller: normalizeSuiAddress('0x0'),
      }).toBytes(),
    },
    {
      type: `${p.transfer}::transfer::CashmereTransfer`,
      bcs: SUI_CCTP_LAYOUTS.CashmereTransfer.serialize({
        destination_domain: t.destination,
        nonce: t.transferNonce,
        recipient: recipient32,
        solana_owner: normalizeSuiAddress('0x0'),
        user: t.user,
        amount: t.amount,
        gas_drop_amount: t.gasDrop ?? 0n,
        fee_is_native: t.native ?? false,
        cctp_nonce: t.cctpNonce,
      }).toBytes(),
    },
  ];
  return { events, message, burned };
}
