/**
 * Destination receipts (docs/indexer.md "Destination"): each `MessageReceived` of a configured
 * MessageTransmitter, with the amount minted for that message.
 *
 * Circle's `receiveMessage` (circlefin/evm-cctp-contracts `src/MessageTransmitter.sol`,
 * `src/v2/MessageTransmitterV2.sol`) calls the TokenMessenger's handler, which mints and emits
 * `MintAndWithdraw`, and only then emits `MessageReceived` (docs/indexer.md "Event order"). So a
 * message's mint is the `MintAndWithdraw` after the previous `MessageReceived` of the transaction
 * and before its own, whose recipient and amount are those of the message's burn body (v2: the
 * amount less the fee executed, with `feeCollected` = the fee executed). A batch relayer's
 * transaction (mint, received, mint, received) gives each message its own mint.
 */
import type { TransferNetwork } from '@ctss/domain-types';
import { decodeEventLog, type Hex, type Log } from 'viem';
import { INDEXER_ABI, TOPIC0 } from './events.js';
import { parseBurnBody } from './message.js';
import type { ReceivedRow } from './store.js';

/** Where the receipts are: the destination chain and who may emit its events. */
export interface DestinationContext {
  readonly network: TransferNetwork;
  /** The chain's CCTP domain. */
  readonly domain: number;
  /** MessageTransmitter addresses (lower case) whose `MessageReceived` counts. */
  readonly transmitters: ReadonlySet<string>;
  /**
   * TokenMessenger addresses (lower case) whose `MintAndWithdraw` counts; absent = any emitter
   * inside the message's window (the window and the amount match already exclude other mints).
   */
  readonly messengers?: ReadonlySet<string>;
}

const RECEIVED = new Set<Hex>([TOPIC0.messageReceivedV1, TOPIC0.messageReceivedV2]);

interface Mint {
  readonly recipient: string;
  readonly amount: bigint;
  /** v2 `feeCollected`; 0 for v1. */
  readonly fee: bigint;
  readonly version: 1 | 2;
}

function decodeMint(log: Log, messengers?: ReadonlySet<string>): Mint | undefined {
  const topic0 = log.topics[0];
  if (topic0 !== TOPIC0.mintAndWithdrawV1 && topic0 !== TOPIC0.mintAndWithdrawV2) return undefined;
  if (messengers && !messengers.has(log.address.toLowerCase())) return undefined;
  try {
    const m = decodeEventLog({ abi: INDEXER_ABI, data: log.data, topics: log.topics });
    const args = m.args as { mintRecipient: string; amount: bigint; feeCollected?: bigint };
    return {
      recipient: args.mintRecipient.toLowerCase(),
      amount: args.amount,
      fee: args.feeCollected ?? 0n,
      version: topic0 === TOPIC0.mintAndWithdrawV1 ? 1 : 2,
    };
  } catch {
    return undefined;
  }
}

/**
 * The receipts of one destination transaction's logs.
 *
 * @param logs every log of the transaction's receipt (any order).
 * @param receivedAt the block's timestamp.
 * @returns one row per `MessageReceived` of a configured transmitter; `mint_amount` (base units)
 *   and `fee_executed` (v2, base units) are null when no mint of the message is in the receipt
 *   (not a burn message, or another handler).
 */
export function decodeReceived(
  logs: readonly Log[],
  destination: DestinationContext,
  receivedAt: Date,
): ReceivedRow[] {
  const sorted = [...logs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
  const rows: ReceivedRow[] = [];
  let windowStart = 0;
  sorted.forEach((log, i) => {
    const topic0 = log.topics[0];
    if (!topic0 || !RECEIVED.has(topic0)) return;
    const from = windowStart;
    windowStart = i + 1;
    if (!destination.transmitters.has(log.address.toLowerCase())) return;
    const decoded = decodeEventLog({ abi: INDEXER_ABI, data: log.data, topics: log.topics });
    const args = decoded.args as { sourceDomain: number; nonce: bigint | Hex; messageBody: Hex };
    const version: 1 | 2 = topic0 === TOPIC0.messageReceivedV1 ? 1 : 2;
    const burn = parseBurnBody(args.messageBody, version);
    let mint: Mint | undefined;
    // The handler's mint is the last event before MessageReceived: search from it backwards.
    for (let j = i - 1; burn && j >= from; j--) {
      const m = decodeMint(sorted[j]!, destination.messengers);
      if (
        m &&
        m.version === version &&
        m.recipient === burn.mintRecipient &&
        m.amount === burn.amount - burn.feeExecuted &&
        m.fee === burn.feeExecuted
      ) {
        mint = m;
        break;
      }
    }
    rows.push({
      network: destination.network,
      destination_domain: destination.domain,
      source_domain: Number(args.sourceDomain),
      version,
      nonce: version === 1 ? String(args.nonce) : String(args.nonce).toLowerCase(),
      tx_hash: String(log.transactionHash).toLowerCase(),
      log_index: log.logIndex ?? 0,
      block_number: log.blockNumber ?? 0n,
      block_hash: String(log.blockHash).toLowerCase(),
      mint_amount: mint ? mint.amount : null,
      fee_executed: mint && version === 2 ? mint.fee : null,
      received_at: receivedAt,
    });
  });
  return rows;
}
