/**
 * Which contract may emit which event (docs/indexer.md "Events"): applied to every receipt's
 * logs before they are decoded, so a `DepositForBurn`, `MessageSent`, `MessageReceived`,
 * `MintAndWithdraw` or `Transfer` emitted by any other contract in the same transaction (a
 * look-alike token or messenger) is ignored. Events the indexer does not read pass through.
 */
import type { Hex, Log } from 'viem';
import { TOPIC0, type IndexerEvent } from './events.js';

/** The contracts allowed to emit each kind of event, lower-case addresses. */
export interface Emitters {
  /** The transfer contracts (`CashmereTransfer`). */
  readonly transferContracts: ReadonlySet<string>;
  /** Circle's TokenMessengers (`DepositForBurn`, `MintAndWithdraw`). */
  readonly tokenMessengers: ReadonlySet<string>;
  /** Circle's MessageTransmitters (`MessageSent`, `MessageReceived`). */
  readonly messageTransmitters: ReadonlySet<string>;
  /** The USDC contract (ERC-20 `Transfer`). */
  readonly usdc: ReadonlySet<string>;
}

const EMITTER_OF: Record<IndexerEvent, keyof Emitters> = {
  cashmereTransferV256: 'transferContracts',
  cashmereTransferV64: 'transferContracts',
  depositForBurnV1: 'tokenMessengers',
  depositForBurnV2: 'tokenMessengers',
  mintAndWithdrawV1: 'tokenMessengers',
  mintAndWithdrawV2: 'tokenMessengers',
  messageSent: 'messageTransmitters',
  messageReceivedV1: 'messageTransmitters',
  messageReceivedV2: 'messageTransmitters',
  erc20Transfer: 'usdc',
};

const EMITTER_BY_TOPIC0 = new Map<Hex, keyof Emitters>(
  (Object.entries(TOPIC0) as [IndexerEvent, Hex][]).map(([event, topic0]) => [
    topic0,
    EMITTER_OF[event],
  ]),
);

/**
 * The logs an indexer may decode: each log of an event the indexer reads only when its
 * emitter is one of the configured contracts for that event; other logs unchanged.
 */
export function trustedLogs<L extends Pick<Log, 'address' | 'topics'>>(
  logs: readonly L[],
  emitters: Emitters,
): L[] {
  return logs.filter((log) => {
    const topic0 = log.topics[0];
    const kind = topic0 ? EMITTER_BY_TOPIC0.get(topic0) : undefined;
    return kind === undefined || emitters[kind].has(log.address.toLowerCase());
  });
}
