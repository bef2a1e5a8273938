/**
 * Aptos events of the transfer module and of Circle's CCTP packages as the node writes Move
 * values in JSON (docs/indexer.md "Sui and Aptos"; addresses and bytes built with
 * `@aptos-labs/ts-sdk`), for the local Aptos (fake-aptos.ts). Layouts:
 * cashmere-prod/contracts-prod `aptos/sources/transfer.move` (`CashmereTransfer`),
 * circlefin/aptos-cctp `token_messenger.move` (`DepositForBurn`), `message_transmitter.move`
 * (`MessageSent`).
 */
import { AccountAddress, Hex as AptosHex } from '@aptos-labs/ts-sdk';
import type { Hex } from 'viem';
import type { AptosEvent } from './fake-aptos.js';
import { v1BurnMessage } from './move-data.js';

/** Addresses of an Aptos deployment. */
export interface AptosCctpAddresses {
  /** The account of the `transfer` module (`transfer::CashmereTransfer`). */
  readonly transferModule: AccountAddress;
  /** Circle's TokenMessengerMinter (`token_messenger::DepositForBurn`). */
  readonly tokenMessengerMinter: AccountAddress;
  /** Circle's MessageTransmitter (`message_transmitter::MessageSent` / `MessageReceived`). */
  readonly messageTransmitter: AccountAddress;
  /** USDC (the burn token). */
  readonly usdc: AccountAddress;
}

/**
 * The mainnet addresses the indexer defaults to (docs/indexer.md "Sui and Aptos"): the transfer
 * module and USDC of cashmere-prod/cashmere-agent-sdk `src/constants.ts`, Circle's packages from
 * its Bridge Kit.
 */
export const APTOS_EXAMPLE_ADDRESSES: AptosCctpAddresses = {
  transferModule: AccountAddress.from(
    '0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d',
  ),
  tokenMessengerMinter: AccountAddress.from(
    '0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d',
  ),
  messageTransmitter: AccountAddress.from(
    '0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772',
  ),
  usdc: AccountAddress.from('0xbae207659db88bea0cbead6da0ed00aac12edcdda169e591cd41c94180b46f3b'),
};

/** A transfer out of Aptos (CCTP domain 9). Amounts in USDC base units. */
export interface AptosTransferInput {
  readonly destination: number;
  /** The recipient on the destination (EVM: 20 bytes; up to 32). */
  readonly recipient: Hex;
  /** Circle's TokenMessenger on the destination (the message's recipient). */
  readonly destinationMessenger: Hex;
  /** The sender (written as the node writes it: short for a special address such as 0xa). */
  readonly user: AccountAddress | string;
  /** USDC taken for the transfer, before the fee. */
  readonly amount: bigint;
  /** The fee kept; `amount - fee` is burned. */
  readonly fee: bigint;
  readonly gasDrop: bigint;
  /** The CCTP v1 message nonce (u64). */
  readonly cctpNonce: bigint;
  /** The transfer module's own counter (u256). */
  readonly transferNonce: bigint;
}

/** An address of up to 32 bytes as the node writes it (ts-sdk `AccountAddress`). */
const long = (v: Hex) => AccountAddress.from(v, { maxMissingChars: 63 }).toString();

/**
 * The events of one transfer transaction as `transfer` emits them: Circle's `MessageSent` and
 * `DepositForBurn`, then `CashmereTransfer` (event index 2), with the v1 message and the burned
 * amount.
 */
export function aptosTransferEvents(
  a: AptosCctpAddresses,
  t: AptosTransferInput,
): { events: AptosEvent[]; message: Hex; burned: bigint } {
  const burned = t.amount - t.fee;
  const { message } = v1BurnMessage({
    source: 9,
    destination: t.destination,
    nonce: t.cctpNonce,
    sender: a.tokenMessengerMinter.toString(),
    recipient: t.destinationMessenger,
    burnToken: a.usdc.toString(),
    mintRecipient: t.recipient,
    amount: burned,
    messageSender: a.transferModule.toString(),
  });
  const events: AptosEvent[] = [
    {
      type: `${a.messageTransmitter.toString()}::message_transmitter::MessageSent`,
      data: { message: AptosHex.fromHexInput(message).toString() },
    },
    {
      type: `${a.tokenMessengerMinter.toString()}::token_messenger::DepositForBurn`,
      data: {
        nonce: t.cctpNonce.toString(),
        burn_token: a.usdc.toString(),
        amount: burned.toString(),
        depositor: a.transferModule.toString(),
        mint_recipient: long(t.recipient),
        destination_domain: t.destination,
        destination_token_messenger: long(t.destinationMessenger),
        destination_caller: AccountAddress.ZERO.toString(),
      },
    },
    {
      type: `${a.transferModule.toString()}::transfer::CashmereTransfer`,
      data: {
        destination_domain: t.destination,
        nonce: t.transferNonce.toString(),
        recipient: long(t.recipient),
        solana_owner: AccountAddress.ZERO.toString(),
        user: AccountAddress.from(t.user).toString(),
        amount: t.amount.toString(),
        gas_drop_amount: t.gasDrop.toString(),
        fee_is_native: false,
        cctp_nonce: t.cctpNonce.toString(),
      },
    },
  ];
  return { events, message, burned };
}
