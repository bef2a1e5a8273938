/**
 * The EVM events the indexer reads, with the exact signatures of the deployed contracts
 * (docs/indexer.md "Events"): the transfer contract's `CashmereTransfer` (two deployments of the
 * event, `amount` uint256 before 2025-09-02 and uint64 after: two topic0s), Circle's
 * TokenMessenger `DepositForBurn` (v1 and v2), MessageTransmitter `MessageSent` and
 * `MessageReceived` (v1 and v2), TokenMessenger `MintAndWithdraw` (v1 and v2), and the ERC-20
 * `Transfer` of the burned token.
 */
import { parseAbi, toEventSelector, type Hex, type ParseAbiItem } from 'viem';

/**
 * The signature of each event the indexer reads, keyed by the short name of its topic0 in
 * {@link TOPIC0}, in the order of {@link INDEXER_ABI}.
 */
const EVENT_SIGNATURES = {
  /** `CashmereTransfer` as deployed before 2025-09-02 (`amount` uint256). */
  cashmereTransferV256:
    'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint256 amount, uint256 gasDropAmount, bool isNative)',
  /** `CashmereTransfer` as deployed from 2025-09-02 (`amount` uint64). */
  cashmereTransferV64:
    'event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative)',
  /** TokenMessenger v1 `DepositForBurn`. */
  depositForBurnV1:
    'event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)',
  /** TokenMessenger v2 `DepositForBurn` (no nonce: v2 messages get theirs from Iris). */
  depositForBurnV2:
    'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  /** MessageTransmitter (v1 and v2) `MessageSent`. */
  messageSent: 'event MessageSent(bytes message)',
  /** MessageTransmitter v1 `MessageReceived`. */
  messageReceivedV1:
    'event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)',
  /** MessageTransmitter v2 `MessageReceived`. */
  messageReceivedV2:
    'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  /** TokenMessenger v1 `MintAndWithdraw`. */
  mintAndWithdrawV1:
    'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)',
  /** TokenMessenger v2 `MintAndWithdraw` (amount minted to the recipient, and the fee collected). */
  mintAndWithdrawV2:
    'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
  /** ERC-20 `Transfer` (EIP-20). */
  erc20Transfer: 'event Transfer(address indexed from, address indexed to, uint256 value)',
} as const;

/** The short name of an event the indexer reads. */
export type IndexerEvent = keyof typeof EVENT_SIGNATURES;

/** The parsed ABI item of each event (abitype `ParseAbiItem` of its signature). */
type IndexerAbi = readonly ParseAbiItem<(typeof EVENT_SIGNATURES)[IndexerEvent]>[];

/** Every event above as one ABI, for `decodeEventLog` over a log. */
export const INDEXER_ABI: IndexerAbi = parseAbi(Object.values(EVENT_SIGNATURES)) as IndexerAbi;

/** topic0 of each event (keccak-256 of its canonical signature), keyed by its short name. */
export const TOPIC0 = Object.fromEntries(
  Object.entries(EVENT_SIGNATURES).map(([name, signature]) => [name, toEventSelector(signature)]),
) as Record<IndexerEvent, Hex>;
