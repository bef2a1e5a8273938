/**
 * The indexer of one Move chain (Sui, Aptos; docs/indexer.md "Sui and Aptos"): the same
 * contract as the EVM `ChainIndexer` (one writer per chain through the advisory lock, records,
 * destination receipts and the cursor in ONE `writeBatch` transaction, idempotent on the origin
 * event key), over a {@link MoveReader} that reads a range of final positions (Sui checkpoints,
 * Aptos transaction versions). Both chains are final at every position they serve, so there is
 * no reorg repair: every row is written `confirmed`, and the safe block is the range's end.
 */
import type { Session } from '../../db/statements.js';
import { keccak256, type Hex } from 'viem';
import { addressFromBytes32, isZero32, vmOfDomain } from '../addresses.js';
import type { TickResult } from '../chain-indexer.js';
import { readCursor, type ChainKey } from '../cursor.js';
import type { TransferRow } from '../decode.js';
import type { ChainLocks } from '../lock.js';
import { parseBurnBody, parseCctpMessage } from '../message.js';
import { writeBatch, type ReceivedRow } from '../store.js';

/** `CashmereTransfer` of the Sui and Aptos transfer modules (cashmere-prod/contracts-prod `sui/sources/transfer.move`, `aptos/sources/transfer.move`), field order as declared. */
export interface CashmereTransferFields {
  readonly destination_domain: number;
  /** The transfer module's own counter (u256). */
  readonly nonce: bigint;
  /** `0x` + 64 hex. */
  readonly recipient: Hex;
  /** `0x` + 64 hex; zero unless the destination is Solana. */
  readonly solana_owner: Hex;
  /** `0x` + 64 hex. */
  readonly user: Hex;
  /** USDC taken for the transfer after the USDC gas drop, before the fee, base units (u64). */
  readonly amount: bigint;
  /** Gas drop, base units of USDC or of the native coin (`fee_is_native`), u64. */
  readonly gas_drop_amount: bigint;
  readonly fee_is_native: boolean;
  /** The CCTP v1 message nonce (u64 widened to u256). */
  readonly cctp_nonce: bigint;
}

/** One `CashmereTransfer` with what its transaction says of the burn. */
export interface MoveTransfer {
  /** Sui: the transaction digest (base58); Aptos: the transaction hash (`0x` + 64 hex). */
  readonly txHash: string;
  /** Position of the event among its transaction's events. */
  readonly eventIndex: number;
  /** Sui checkpoint / Aptos transaction version. */
  readonly position: bigint;
  /** Sui checkpoint digest / Aptos transaction hash. */
  readonly positionHash: string;
  readonly time: Date;
  readonly event: CashmereTransferFields;
  /** `DepositForBurn.amount` of Circle's TokenMessengerMinter in the same transaction (the burned amount), base units; undefined when absent. */
  readonly burned: bigint | undefined;
  /** The `MessageSent.message` bytes of the same transaction whose nonce is `cctp_nonce`. */
  readonly message: Hex | undefined;
}

/** A `MessageReceived` of Circle's MessageTransmitter on the Move chain (CCTP v1). */
export interface MoveReceived {
  readonly txHash: string;
  readonly eventIndex: number;
  readonly position: bigint;
  readonly positionHash: string;
  readonly time: Date;
  readonly sourceDomain: number;
  /** u64 nonce. */
  readonly nonce: bigint;
  /** The burn message body, 0x hex. */
  readonly messageBody: Hex;
}

/** What a Move source reads from its chain. */
export interface MoveReader {
  /** The highest final position the service has indexed. @throws on a failed request. */
  head(): Promise<bigint>;
  /**
   * The hash (Sui checkpoint digest, Aptos transaction hash) and time of a position.
   * @throws on a failed request.
   */
  positionAt(position: bigint): Promise<{ readonly hash: string; readonly time: Date }>;
  /** Transfers in `[from, to]`, in chain order. @throws on a failed request or a bad answer. */
  transfers(from: bigint, to: bigint): Promise<MoveTransfer[]>;
  /** Receives in `[from, to]`; [] when no MessageTransmitter is configured. @throws likewise. */
  received(from: bigint, to: bigint): Promise<MoveReceived[]>;
}

/** The loop settings of a Move chain, as {@link startIndexerRunner} reads them. */
export interface MoveChainSettings {
  readonly name: string;
  readonly network: 'mainnet' | 'testnet';
  readonly domain: number;
  /** First position to read (deployment checkpoint / version). */
  readonly start: bigint;
  /** Largest range of positions per step. */
  readonly maxRange: bigint;
  readonly pollIntervalMs: number;
}

/**
 * A record in the EVM record's terms (docs/indexer.md "Sui and Aptos"): `sender` = `user`,
 * `recipient` by the destination's VM (Solana: `solana_owner` when set), `deposit_amount` =
 * `amount`, `receive_amount` = the burned amount, `relayer_fee` = the difference, CCTP v1 nonce
 * and message hash known at the source, `confirmed` (final).
 *
 * @returns undefined when the transaction has no `DepositForBurn` of the configured
 *   TokenMessengerMinter (not a burn this indexer can account for).
 */
function moveTransferRow(
  chain: { readonly network: 'mainnet' | 'testnet'; readonly domain: number },
  t: MoveTransfer,
): TransferRow | undefined {
  if (t.burned === undefined) return undefined;
  const e = t.event;
  const vm = vmOfDomain(e.destination_domain);
  const recipient =
    vm === 'solana' && !isZero32(e.solana_owner)
      ? addressFromBytes32(e.solana_owner, vm)
      : addressFromBytes32(e.recipient, vm);
  return {
    network: chain.network,
    source_domain: chain.domain,
    source_tx_hash: t.txHash,
    log_index: t.eventIndex,
    block_number: t.position,
    block_hash: t.positionHash,
    destination_domain: e.destination_domain,
    sender: e.user.toLowerCase(),
    recipient,
    deposit_amount: e.amount,
    receive_amount: t.burned,
    relayer_fee: e.amount > t.burned ? e.amount - t.burned : 0n,
    gas_drop_amount: e.gas_drop_amount,
    is_gas_drop_in_native: e.fee_is_native,
    max_fee: 0n,
    version: 1,
    cctp_nonce: e.cctp_nonce.toString(),
    message_hash: t.message ? keccak256(t.message) : null,
    min_finality_threshold: null,
    confirmed: true,
    created_at: t.time,
  };
}

/**
 * A receipt row (`cctp_received`) from a Move `MessageReceived`: v1, the u64 nonce in decimal,
 * `mint_amount` = the burn body's amount (CCTP v1 mints the whole burned amount: Circle's
 * `handle_receive_message` mints `burn_message::get_amount`), no fee.
 */
function moveReceivedRow(
  chain: { readonly network: 'mainnet' | 'testnet'; readonly domain: number },
  r: MoveReceived,
): ReceivedRow {
  return {
    network: chain.network,
    destination_domain: chain.domain,
    source_domain: r.sourceDomain,
    version: 1,
    nonce: r.nonce.toString(),
    tx_hash: r.txHash,
    log_index: r.eventIndex,
    block_number: r.position,
    block_hash: r.positionHash,
    mint_amount: parseBurnBody(r.messageBody, 1)?.amount ?? null,
    fee_executed: null,
    received_at: r.time,
  };
}

/**
 * The `MessageSent` of `messages` whose v1 nonce is `nonce` (a transaction may hold several).
 *
 * @returns undefined when none matches.
 */
export function messageOfNonce(messages: readonly Hex[], nonce: bigint): Hex | undefined {
  return messages.find((m) => {
    try {
      return parseCctpMessage(m, 1).nonce === nonce.toString();
    } catch {
      return false;
    }
  });
}

/** The indexer of one Move chain; `tick()` does one step, the runner schedules it. */
export class MoveChainIndexer {
  readonly key: ChainKey;
  readonly lockKey: string;

  constructor(
    readonly config: MoveChainSettings,
    private readonly reader: MoveReader,
    private readonly db: Session,
    private readonly locks: ChainLocks,
  ) {
    this.key = { name: config.name, network: config.network, domain: config.domain };
    this.lockKey = `${config.network}:${config.domain}`;
  }

  /** Whether this process holds the chain's lock (is its writer and attestation poller). */
  isWriter(): boolean {
    return this.locks.holds(this.lockKey);
  }

  /**
   * One step: standby without the lock; idle at the head; otherwise reads the next range and
   * writes it with the cursor in one transaction.
   *
   * @throws request and database errors (nothing is written then), CursorMovedError.
   */
  async tick(): Promise<TickResult> {
    if (!(await this.locks.tryAcquire(this.lockKey))) return { kind: 'standby' };
    const head = await this.reader.head();
    const cursor = await readCursor(this.db, this.key);
    const from = cursor ? cursor.number + 1n : this.config.start;
    if (from > head) return { kind: 'idle', head };
    const last = from + this.config.maxRange - 1n;
    const to = head < last ? head : last;
    const [transfers, received, end] = await Promise.all([
      this.reader.transfers(from, to),
      this.reader.received(from, to),
      this.reader.positionAt(to),
    ]);
    if (!this.locks.holds(this.lockKey)) return { kind: 'standby' };
    const rows = transfers.flatMap((t) => moveTransferRow(this.config, t) ?? []);
    const inserted = await writeBatch(this.db, {
      chain: this.key,
      expected: cursor,
      next: { number: to, hash: end.hash },
      transfers: rows,
      received: received.map((r) => moveReceivedRow(this.config, r)),
      safeBlock: to,
      // Every position read is final: the feed watermark moves to the range's end.
      confirmedTime: end.time,
    });
    return { kind: 'scanned', from, to, head, inserted };
  }
}
