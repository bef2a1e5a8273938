/**
 * The EVM events the indexer reads, with the exact signatures of the deployed contracts
 * (docs/indexer.md "Events"): the transfer contract's `CashmereTransfer` (two deployments of the
 * event, `amount` uint256 before 2025-09-02 and uint64 after: two topic0s), Circle's
 * TokenMessenger `DepositForBurn` (v1 and v2), MessageTransmitter `MessageSent` and
 * `MessageReceived` (v1 and v2), TokenMessenger `MintAndWithdraw` (v1 and v2), and the ERC-20
 * `Transfer` of the burned token.
 */
import { parseAbiItem, toEventSelector } from 'viem';

/** `CashmereTransfer` as deployed before 2025-09-02 (`amount` uint256). */
export const CASHMERE_TRANSFER_V256 = parseAbiItem(
  'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint256 amount, uint256 gasDropAmount, bool isNative)',
);

/** `CashmereTransfer` as deployed from 2025-09-02 (`amount` uint64). */
export const CASHMERE_TRANSFER_V64 = parseAbiItem(
  'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative)',
);

/** TokenMessenger v1 `DepositForBurn`. */
export const DEPOSIT_FOR_BURN_V1 = parseAbiItem(
  'event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)',
);

/** TokenMessenger v2 `DepositForBurn` (no nonce: v2 messages get theirs from Iris). */
export const DEPOSIT_FOR_BURN_V2 = parseAbiItem(
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
);

/** MessageTransmitter (v1 and v2) `MessageSent`. */
export const MESSAGE_SENT = parseAbiItem('event MessageSent(bytes message)');

/** MessageTransmitter v1 `MessageReceived`. */
export const MESSAGE_RECEIVED_V1 = parseAbiItem(
  'event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)',
);

/** MessageTransmitter v2 `MessageReceived`. */
export const MESSAGE_RECEIVED_V2 = parseAbiItem(
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
);

/** TokenMessenger v1 `MintAndWithdraw`. */
export const MINT_AND_WITHDRAW_V1 = parseAbiItem(
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)',
);

/** TokenMessenger v2 `MintAndWithdraw` (amount minted to the recipient, and the fee collected). */
export const MINT_AND_WITHDRAW_V2 = parseAbiItem(
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
);

/** ERC-20 `Transfer` (EIP-20). */
export const ERC20_TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** Every event above as one ABI, for `parseEventLogs` over a receipt. */
export const INDEXER_ABI = [
  CASHMERE_TRANSFER_V256,
  CASHMERE_TRANSFER_V64,
  DEPOSIT_FOR_BURN_V1,
  DEPOSIT_FOR_BURN_V2,
  MESSAGE_SENT,
  MESSAGE_RECEIVED_V1,
  MESSAGE_RECEIVED_V2,
  MINT_AND_WITHDRAW_V1,
  MINT_AND_WITHDRAW_V2,
  ERC20_TRANSFER,
] as const;

/** topic0 of each event, keyed by a short name. */
export const TOPIC0 = {
  cashmereTransferV256: toEventSelector(CASHMERE_TRANSFER_V256),
  cashmereTransferV64: toEventSelector(CASHMERE_TRANSFER_V64),
  depositForBurnV1: toEventSelector(DEPOSIT_FOR_BURN_V1),
  depositForBurnV2: toEventSelector(DEPOSIT_FOR_BURN_V2),
  messageSent: toEventSelector(MESSAGE_SENT),
  messageReceivedV1: toEventSelector(MESSAGE_RECEIVED_V1),
  messageReceivedV2: toEventSelector(MESSAGE_RECEIVED_V2),
  mintAndWithdrawV1: toEventSelector(MINT_AND_WITHDRAW_V1),
  mintAndWithdrawV2: toEventSelector(MINT_AND_WITHDRAW_V2),
  erc20Transfer: toEventSelector(ERC20_TRANSFER),
} as const;
