/**
 * From the logs of one origin transaction to transfer records (docs/indexer.md "Record
 * fields"): each `CashmereTransfer` of a configured transfer contract is paired with the
 * `DepositForBurn` emitted just before it by the contract's own burn (depositor = the transfer
 * contract), the `MessageSent` before that, and the user's ERC-20 `Transfer` of the burn token
 * to the contract.
 */
import type { TransferNetwork } from '@ctss/domain-types';
import { decodeEventLog, keccak256, type Hex, type Log } from 'viem';
import type { TransferColumns } from '../transactions/row.js';
import { addressFromBytes32, isZero32, vmOfDomain } from './addresses.js';
import { INDEXER_ABI, TOPIC0 } from './events.js';
import { parseCctpMessage } from './message.js';

/** A record as the indexer writes it (amounts in base units; see docs/indexer.md). */
export interface TransferRow extends TransferColumns {
  log_index: number;
  block_number: bigint;
  block_hash: string;
  version: 1 | 2;
  /** v1 nonce (decimal) known at the source; null for v2 until Iris gives the eventNonce. */
  cctp_nonce: string | null;
  /**
   * keccak-256 of the CCTP message, 0x hex: v1 of the `MessageSent` bytes (what is attested and
   * received); null for v2 until attested (Iris fills in the nonce, so the hash changes).
   */
  message_hash: string | null;
  /** v2: `DepositForBurn.minFinalityThreshold` (1000 fast, 2000 standard); v1: null. */
  min_finality_threshold: number | null;
}

/** What the decoder needs to know of the origin chain. */
export interface OriginContext {
  readonly network: TransferNetwork;
  readonly domain: number;
  /** Transfer contract addresses, lower case. */
  readonly transferContracts: ReadonlySet<string>;
}

type Decoded = { log: Log; name: string; args: Record<string, unknown>; topic0: Hex };

function decodeAll(logs: readonly Log[]): Decoded[] {
  const out: Decoded[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0];
    if (!topic0) continue;
    try {
      const d = decodeEventLog({ abi: INDEXER_ABI, data: log.data, topics: log.topics });
      out.push({ log, name: d.eventName, args: d.args, topic0 });
    } catch {
      // Another contract's event sharing a name, or an event we do not read.
    }
  }
  return out.sort((a, b) => (a.log.logIndex ?? 0) - (b.log.logIndex ?? 0));
}

const lower = (value: unknown): string => String(value).toLowerCase();

/**
 * The transfer records of one origin transaction's receipt logs.
 *
 * @param logs every log of the receipt (any order).
 * @param createdAt the block timestamp.
 * @param confirmed whether the block is at or below the confirmation depth.
 * @returns one row per `CashmereTransfer` of a configured contract that has its DepositForBurn;
 *   a CashmereTransfer without one (not a contract we know) is skipped.
 */
export function decodeTransfers(
  logs: readonly Log[],
  origin: OriginContext,
  createdAt: Date,
  confirmed: boolean,
): TransferRow[] {
  const events = decodeAll(logs);
  const used = new Set<number>();
  const rows: TransferRow[] = [];
  events.forEach((event, i) => {
    if (event.name !== 'CashmereTransfer') return;
    const contract = lower(event.log.address);
    if (!origin.transferContracts.has(contract)) return;
    // The contract's burn: the last unused DepositForBurn before this log whose depositor is it.
    let burnAt = -1;
    for (let j = i - 1; j >= 0; j--) {
      const e = events[j]!;
      if (e.name === 'DepositForBurn' && !used.has(j) && lower(e.args.depositor) === contract) {
        burnAt = j;
        break;
      }
    }
    if (burnAt < 0) return;
    used.add(burnAt);
    const burn = events[burnAt]!;
    const version: 1 | 2 = burn.topic0 === TOPIC0.depositForBurnV1 ? 1 : 2;
    const burnToken = lower(burn.args.burnToken);
    const user = lower(event.args.user);
    let sent: Decoded | undefined;
    let pulled = 0n;
    for (let j = burnAt - 1; j >= 0; j--) {
      const e = events[j]!;
      if (!sent && e.name === 'MessageSent') sent = e;
      if (
        e.name === 'Transfer' &&
        lower(e.log.address) === burnToken &&
        lower(e.args.from) === user &&
        lower(e.args.to) === contract
      ) {
        pulled = e.args.value as bigint;
        break;
      }
    }
    const destination = Number(event.args.destinationDomain);
    const vm = vmOfDomain(destination);
    const owner = event.args.solanaOwner as Hex;
    const recipient =
      vm === 'solana' && !isZero32(owner)
        ? addressFromBytes32(owner, vm)
        : addressFromBytes32(event.args.recipient as Hex, vm);
    const burned = burn.args.amount as bigint;
    const gasDrop = event.args.gasDropAmount as bigint;
    const isNative = event.args.isNative as boolean;
    // The USDC gas drop travels with the deposit but is not part of the transfer (docs/indexer.md).
    const usdcGasDrop = isNative ? 0n : gasDrop;
    const deposit = pulled > usdcGasDrop ? pulled - usdcGasDrop : burned;
    const message = sent ? parseCctpMessage(sent.args.message as Hex, version) : undefined;
    rows.push({
      network: origin.network,
      source_domain: origin.domain,
      source_tx_hash: lower(event.log.transactionHash),
      log_index: event.log.logIndex ?? 0,
      block_number: event.log.blockNumber ?? 0n,
      block_hash: lower(event.log.blockHash),
      destination_domain: destination,
      sender: user,
      recipient,
      deposit_amount: deposit,
      receive_amount: burned,
      relayer_fee: deposit > burned ? deposit - burned : 0n,
      gas_drop_amount: gasDrop,
      is_gas_drop_in_native: isNative,
      max_fee: version === 2 ? (burn.args.maxFee as bigint) : 0n,
      version,
      cctp_nonce: version === 1 ? (message?.nonce ?? String(burn.args.nonce)) : null,
      message_hash: version === 1 && sent ? keccak256(sent.args.message as Hex) : null,
      min_finality_threshold: version === 2 ? Number(burn.args.minFinalityThreshold) : null,
      confirmed,
      created_at: createdAt,
    });
  });
  return rows;
}
