/**
 * The polling loop of one EVM chain (docs/indexer.md "Polling"): under the chain's advisory
 * lock, each tick checks the cursor's block hash against the chain (a mismatch is a reorg:
 * rewind), scans the next range of at most `maxBlockRange` blocks for `CashmereTransfer` (both
 * topic0s) and `MessageReceived`, reads the receipts and block timestamps, and writes the
 * records with the new cursor in one transaction. An error leaves the cursor where it was: the
 * same range is scanned again on the next tick.
 */
import type { Session } from '../db/statements.js';
import { BlockNotFoundError, type Block, type Hash, type Log, type PublicClient } from 'viem';
import type { ChainConfig } from './config.js';
import { decodeTransfers, type TransferRow } from './decode.js';
import { decodeReceived } from './destination.js';
import { TOPIC0 } from './events.js';
import type { ChainLocks } from './lock.js';
import { trustedLogs, type Emitters } from './log-filter.js';
import { getLogsSplitting, RPC_BATCH_SIZE } from './rpc.js';
import { readCursor, type ChainKey, type StoredCursor } from './cursor.js';
import { anchorsAtOrBelow, commonAncestor, isDeepReorg } from './reorg.js';
import { rewind, storedBlocksAbove, writeBatch, type ReceivedRow } from './store.js';
import { mapLimit } from './map-limit.js';

/** What a tick did. */
export type TickResult =
  | { kind: 'standby' }
  | { kind: 'idle'; head: bigint }
  | { kind: 'scanned'; from: bigint; to: bigint; head: bigint; inserted: number }
  | {
      kind: 'rewound';
      /** The common ancestor: the cursor is set back to it. */
      to: bigint;
      /** Records deleted. */
      deleted: number;
      /** Blocks replaced at or below the cursor (cursor - ancestor). */
      depth: number;
      /** Whether blocks counted final (at or below the recorded safe block) were replaced. */
      deep: boolean;
    };

/** Thrown when the chain changed under a scan (the range is scanned again). */
class ChainMovedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainMovedError';
  }
}

/**
 * Receipts and blocks requested at once per step: one JSON-RPC batch of the client
 * ({@link RPC_BATCH_SIZE}), so one HTTP request in flight per step.
 */
const RPC_CONCURRENCY = RPC_BATCH_SIZE;

const TRANSFER_TOPICS = [TOPIC0.cashmereTransferV256, TOPIC0.cashmereTransferV64];
const RECEIVED_TOPICS = [TOPIC0.messageReceivedV1, TOPIC0.messageReceivedV2];

/** The indexer of one chain; `tick()` does one step, the caller schedules it. */
export class ChainIndexer {
  readonly key: ChainKey;
  /** The advisory lock's key: the chain's identity (network and CCTP domain). */
  readonly lockKey: string;
  private readonly transferContracts: Set<string>;
  private readonly transmitters: Set<string>;
  private readonly emitters: Emitters;

  constructor(
    readonly config: ChainConfig,
    private readonly client: PublicClient,
    private readonly logsClient: PublicClient,
    private readonly db: Session,
    private readonly locks: ChainLocks,
  ) {
    this.key = { name: config.name, network: config.network, domain: config.domain };
    this.lockKey = `${config.network}:${config.domain}`;
    this.transferContracts = new Set(config.transferContracts);
    this.transmitters = new Set(config.messageTransmitters);
    this.emitters = {
      transferContracts: this.transferContracts,
      tokenMessengers: new Set(config.tokenMessengers),
      messageTransmitters: this.transmitters,
      usdc: new Set([config.usdc]),
    };
  }

  /** Whether this process holds the chain's lock (is its writer and attestation poller). */
  isWriter(): boolean {
    return this.locks.holds(this.lockKey);
  }

  /** Highest block counted final: head - confirmations, or the `finalized` block. */
  private async safeBlock(head: bigint): Promise<bigint> {
    if (this.config.confirmations === 'finalized') {
      const block = await this.client.getBlock({ blockTag: 'finalized' });
      return block.number ?? -1n;
    }
    return head - BigInt(this.config.confirmations);
  }

  private async blockAt(number: bigint): Promise<Block | undefined> {
    if (number < 0n) return undefined;
    try {
      return await this.client.getBlock({ blockNumber: number });
    } catch (error) {
      if (error instanceof BlockNotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * One step: standby without the lock; otherwise repair a reorg or scan the next range.
   *
   * @throws RPC and database errors (nothing is written then), {@link ChainMovedError},
   *   CursorMovedError (another writer moved the cursor).
   */
  async tick(): Promise<TickResult> {
    if (!(await this.locks.tryAcquire(this.lockKey))) return { kind: 'standby' };
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    const cursor = await readCursor(this.db, this.key);
    if (cursor) {
      const block = await this.blockAt(cursor.number);
      if (block?.hash?.toLowerCase() !== cursor.hash) return this.repair(cursor);
    }
    const from = cursor ? cursor.number + 1n : BigInt(this.config.startBlock);
    if (from > head) return { kind: 'idle', head };
    const to =
      head < from + BigInt(this.config.maxBlockRange) - 1n
        ? head
        : from + BigInt(this.config.maxBlockRange) - 1n;
    const toBlock = await this.blockAt(to);
    if (!toBlock?.hash) throw new ChainMovedError(`block ${to} not found`);
    const safe = await this.safeBlock(head);
    const [transfers, received] = await Promise.all([
      this.scanTransfers(from, to, safe),
      this.scanReceived(from, to),
    ]);
    // A reorg during the scan shows as another hash at `to`: drop the work, scan again.
    const after = await this.blockAt(to);
    if (after?.hash !== toBlock.hash) throw new ChainMovedError(`block ${to} changed during scan`);
    if (!this.locks.holds(this.lockKey)) return { kind: 'standby' };
    // The time up to which this chain is scanned and final: the feed watermark's part.
    const confirmedBlock = safe >= to ? toBlock : await this.blockAt(safe);
    const inserted = await writeBatch(this.db, {
      chain: this.key,
      expected: cursor,
      next: { number: to, hash: toBlock.hash.toLowerCase() },
      transfers,
      received,
      safeBlock: safe,
      ...(confirmedBlock
        ? { confirmedTime: new Date(Number(confirmedBlock.timestamp) * 1000) }
        : {}),
    });
    return { kind: 'scanned', from, to, head, inserted };
  }

  private async scanTransfers(from: bigint, to: bigint, safe: bigint): Promise<TransferRow[]> {
    const logs = await getLogsSplitting(
      this.logsClient,
      this.config.transferContracts,
      TRANSFER_TOPICS,
      from,
      to,
    );
    const byTx = [...groupByTx(logs)];
    const receipts = await mapLimit(byTx, RPC_CONCURRENCY, async ([hash, txLogs]) => {
      const receipt = await this.client.getTransactionReceipt({ hash });
      if (receipt.blockHash.toLowerCase() !== String(txLogs[0]!.blockHash).toLowerCase()) {
        throw new ChainMovedError(`receipt of ${hash} is in another block`);
      }
      return receipt;
    });
    const numbers = [...new Set(receipts.map((r) => r.blockNumber))];
    const blocks = await mapLimit(numbers, RPC_CONCURRENCY, (n) => this.blockAt(n));
    const times = new Map<bigint, { hash: string; time: Date }>();
    blocks.forEach((b, i) => {
      if (b?.hash)
        times.set(numbers[i]!, {
          hash: b.hash.toLowerCase(),
          time: new Date(Number(b.timestamp) * 1000),
        });
    });
    const rows: TransferRow[] = [];
    for (const receipt of receipts) {
      const block = times.get(receipt.blockNumber);
      if (!block || block.hash !== receipt.blockHash.toLowerCase()) {
        throw new ChainMovedError(`block ${receipt.blockNumber} changed during scan`);
      }
      rows.push(
        ...decodeTransfers(
          trustedLogs(receipt.logs, this.emitters),
          {
            network: this.config.network,
            domain: this.config.domain,
            transferContracts: this.transferContracts,
          },
          block.time,
          receipt.blockNumber <= safe,
        ),
      );
    }
    return rows;
  }

  private async scanReceived(from: bigint, to: bigint): Promise<ReceivedRow[]> {
    const logs = await getLogsSplitting(
      this.logsClient,
      this.config.messageTransmitters,
      RECEIVED_TOPICS,
      from,
      to,
    );
    const receipts = await mapLimit(
      [...groupByTx(logs)],
      RPC_CONCURRENCY,
      async ([hash, txLogs]) => {
        const receipt = await this.client.getTransactionReceipt({ hash });
        if (receipt.blockHash.toLowerCase() !== String(txLogs[0]!.blockHash).toLowerCase()) {
          throw new ChainMovedError(`receipt of ${hash} is in another block`);
        }
        return receipt;
      },
    );
    const numbers = [...new Set(receipts.map((r) => r.blockNumber))];
    const blocks = await mapLimit(numbers, RPC_CONCURRENCY, (n) => this.blockAt(n));
    const { network, domain } = this.config;
    const destination = { network, domain, transmitters: this.transmitters };
    const rows: ReceivedRow[] = [];
    for (const receipt of receipts) {
      const block = blocks[numbers.indexOf(receipt.blockNumber)];
      if (block?.hash?.toLowerCase() !== receipt.blockHash.toLowerCase()) {
        throw new ChainMovedError(`block ${receipt.blockNumber} changed during scan`);
      }
      const time = new Date(Number(block.timestamp) * 1000);
      rows.push(...decodeReceived(trustedLogs(receipt.logs, this.emitters), destination, time));
    }
    return rows;
  }

  /**
   * After a reorg below the cursor: walks back over the stored block hashes to the common
   * ancestor (reorg.ts; the block before `startBlock` when none is left), fetches the canonical
   * hash of every block above it that holds a stored record or receipt, deletes the records and
   * receipts whose hash is no longer canonical (rollups follow through the delete trigger),
   * and sets the cursor to the ancestor; the next ticks scan forward again and write the
   * transfers mined in place of the dropped ones.
   */
  private async repair(cursor: StoredCursor): Promise<TickResult> {
    const floor = BigInt(this.config.startBlock) - 1n;
    const anchors = await anchorsAtOrBelow(this.db, this.key, cursor.number);
    const { anchor } = await commonAncestor(
      anchors.filter((a) => a.number > floor),
      async (n) => (await this.blockAt(n))?.hash?.toLowerCase(),
    );
    const target = anchor ? anchor.number : floor;
    const stored = await storedBlocksAbove(this.db, this.key, target);
    const canonical = new Map<bigint, string>();
    for (const n of stored.keys()) {
      const block = await this.blockAt(n);
      if (block?.hash) canonical.set(n, block.hash.toLowerCase());
    }
    const targetBlock = anchor ? undefined : await this.blockAt(target);
    const next = anchor
      ? { number: anchor.number, hash: anchor.hash }
      : targetBlock?.hash
        ? { number: target, hash: targetBlock.hash.toLowerCase() }
        : undefined;
    const deleted = await rewind(this.db, this.key, cursor, next, canonical);
    return {
      kind: 'rewound',
      to: target,
      deleted,
      depth: Number(cursor.number - target),
      deep: isDeepReorg(cursor, target),
    };
  }
}

function groupByTx(logs: readonly Log[]): Map<Hash, Log[]> {
  const byTx = new Map<Hash, Log[]>();
  for (const log of logs) {
    if (!log.transactionHash || log.removed) continue;
    const list = byTx.get(log.transactionHash) ?? [];
    list.push(log);
    byTx.set(log.transactionHash, list);
  }
  return byTx;
}
