/**
 * `@ctss/solana-layouts`: the binary layouts of the Solana programs a transfer goes through
 * (docs/indexer.md "Solana"), one definition for the indexer that decodes them and the devnet
 * that writes them: Anchor's discriminators and event tag (anchor.ts), the transfer program's
 * instruction arguments and `TransferEvent` (transfer-program.ts), and Circle's `MessageSent`,
 * `MessageReceived`, `MintAndWithdraw`, `receive_message` parameters and used-nonce accounts
 * (circle-programs.ts). `src/layouts.test.ts` pins them against the published programs.
 */
import { anchorDiscriminator } from './anchor.js';

export { type AnchorNamespace, anchorDiscriminator, EVENT_IX_TAG, startsWith } from './anchor.js';
export { bytes32, vecU8 } from './borsh.js';
export {
  type TransferEvent,
  type TransferV1Args,
  type TransferV2Args,
  transferArgsCodec,
  transferEventCodec,
  transferV2ArgsCodec,
} from './transfer-program.js';
export {
  type MessageReceivedV1Event,
  type MessageReceivedV2Event,
  type MessageSentV1Account,
  type MessageSentV2Account,
  type MintAndWithdrawV1Event,
  type MintAndWithdrawV2Event,
  type ReceiveMessageParams,
  type UsedNonceAccount,
  type UsedNonceKey,
  type UsedNoncesAccount,
  USED_NONCES_PER_ACCOUNT,
  firstNonceOf,
  messageReceivedV1Codec,
  messageReceivedV2Codec,
  messageSentV1Codec,
  messageSentV2Codec,
  mintAndWithdrawV1Codec,
  mintAndWithdrawV2Codec,
  receiveMessageParamsCodec,
  usedNonceAddress,
  usedNonceV2Codec,
  usedNoncesV1Codec,
} from './circle-programs.js';

/** The discriminators of the instructions, events and accounts the indexer matches. */
export const DISCRIMINATORS = {
  transfer: anchorDiscriminator('global', 'transfer'),
  transferV2: anchorDiscriminator('global', 'transfer_v2'),
  transferEvent: anchorDiscriminator('event', 'TransferEvent'),
  messageSent: anchorDiscriminator('account', 'MessageSent'),
  messageReceived: anchorDiscriminator('event', 'MessageReceived'),
  mintAndWithdraw: anchorDiscriminator('event', 'MintAndWithdraw'),
  receiveMessage: anchorDiscriminator('global', 'receive_message'),
} as const;
