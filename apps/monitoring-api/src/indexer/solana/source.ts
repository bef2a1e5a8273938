/**
 * The Solana source (docs/indexer.md "Solana"): under the cluster's advisory lock, each step
 *
 * 1. reads the transfer program's signatures at `finalized` commitment newer than the cursor
 *    (the last signature written), oldest page first (`getSignaturesForAddress` pages back with
 *    `before` down to `until` = the cursor; the page boundaries are kept in memory, so a
 *    backfill reads each page of signatures about twice), fetches each transaction at
 *    `finalized`, decodes its transfers, reads the v1 messages' `MessageSent` accounts, and
 *    writes the records (`confirmed = true`) with the new cursor in one transaction;
 * 2. once caught up with the finalized slot, reads the signatures at `confirmed` commitment
 *    above the cursor and writes their transfers as pending rows (`confirmed = false`);
 * 3. looks up the receive of each record bound for Solana through the used-nonce account
 *    Circle's `receive_message` creates, and writes the receipt (finalized only).
 *
 * Before a write, unconfirmed rows at or below the slot up to which every finalized
 * transaction has been read are deleted unless that write confirms them: a transaction seen at
 * `confirmed` on a fork that never finalizes leaves no record. Signatures, not slots, are the
 * cursor, so a skipped slot never hides a transaction.
 */
import {
  DISCRIMINATORS,
  messageSentV1Codec,
  startsWith,
  usedNonceAddress,
  type MessageSentV1Account,
} from '@ctss/solana-layouts';
import type { Session } from '../../db/statements.js';
import type { TickResult } from '../chain-indexer.js';
import { readCursor, type ChainKey, type StoredCursor } from '../cursor.js';
import type { TransferRow } from '../decode.js';
import type { ChainLocks } from '../lock.js';
import {
  awaitedReceives,
  deleteUnfinalized,
  writeBatch,
  type AwaitedReceive,
  type ReceivedRow,
} from '../store.js';
import type { IndexerSource } from '../source.js';
import type { SolanaChainConfig } from './config.js';
import {
  decodeSolanaReceived,
  decodeSolanaTransfers,
  withMessage,
  type SolanaPrograms,
} from './decode.js';
import type { ReadCommitment, SignatureInfo, SolanaRpc } from './rpc.js';
import { mapLimit } from '../map-limit.js';

/** Transactions fetched at once. */
const FETCH_CONCURRENCY = 16;
/** Records bound for Solana looked up per step. */
const RECEIVE_LOOKUPS_PER_STEP = 20;
/** Longest wait between two receive lookups of one record, ms. */
const RECEIVE_MAX_BACKOFF_MS = 300_000;
/** Pending (confirmed, not finalized) signatures read per step. */
const HEAD_LIMIT = 1_000;

/** The page boundaries of a backfill (`before` values, newest page's `undefined` first). */
interface Walk {
  /** The cursor signature the next page starts after. */
  cursor: string | undefined;
  befores: (string | undefined)[];
}

/** The Solana source of one cluster; `tick()` does one step, the runner schedules it. */
export class SolanaSource implements IndexerSource {
  readonly key: ChainKey;
  private readonly lockKey: string;
  private readonly programs: SolanaPrograms;
  private walk: Walk | undefined;
  /** Receive lookups: record id -> next time (ms) and lookups so far. */
  private readonly receiveChecks = new Map<string, { at: number; attempts: number }>();

  constructor(
    readonly config: SolanaChainConfig,
    private readonly rpc: SolanaRpc,
    private readonly db: Session,
    private readonly locks: ChainLocks,
    private readonly now: () => number = Date.now,
  ) {
    this.key = { name: config.name, network: config.network, domain: config.domain };
    this.lockKey = `${config.network}:${config.domain}`;
    this.programs = {
      transferPrograms: new Set([config.transferProgram]),
      messageTransmitterV1: config.messageTransmitterV1,
      messageTransmitterV2: config.messageTransmitterV2,
      tokenMessengerMinterV1: config.tokenMessengerMinterV1,
      tokenMessengerMinterV2: config.tokenMessengerMinterV2,
    };
  }

  isWriter(): boolean {
    return this.locks.holds(this.lockKey);
  }

  /**
   * One step (module comment).
   *
   * @throws RPC and database errors (nothing of the step is written), CursorMovedError
   *   (another writer moved the cursor).
   */
  async tick(): Promise<TickResult> {
    if (!(await this.locks.tryAcquire(this.lockKey))) return { kind: 'standby' };
    const finalizedSlot = await this.rpc.slot('finalized');
    let cursor = await readCursor(this.db, this.key);
    const page = await this.nextPage(cursor?.hash);
    let safe = finalizedSlot;
    if (page.signatures.length > 0) {
      const newest = page.signatures[page.signatures.length - 1]!;
      const oldest = page.signatures[0]!;
      const transfers = await this.transfersOf(page.signatures, 'finalized');
      // Every finalized transaction at or below `safe` has been read once this page is written.
      safe = page.last ? finalizedSlot : newest.slot - 1n;
      await deleteUnfinalized(
        this.db,
        this.key,
        safe,
        page.signatures.map((s) => s.signature),
      );
      const time = page.last ? await this.slotTime(finalizedSlot) : newest.blockTime;
      const next = { number: newest.slot, hash: newest.signature };
      if (!this.locks.holds(this.lockKey)) return { kind: 'standby' };
      let inserted: number;
      try {
        inserted = await writeBatch(this.db, {
          chain: this.key,
          expected: cursor,
          next,
          transfers,
          received: [],
          safeBlock: safe,
          ...(time !== null ? { confirmedTime: new Date(Number(time) * 1000) } : {}),
        });
      } catch (error) {
        this.walk = undefined;
        throw error;
      }
      if (this.walk) this.walk.cursor = newest.signature;
      if (!page.last) {
        return {
          kind: 'scanned',
          from: oldest.slot,
          to: newest.slot,
          head: finalizedSlot,
          inserted,
        };
      }
      cursor = { ...next, safeBlock: safe };
      const head = await this.writeHead(cursor, safe);
      return {
        kind: 'scanned',
        from: oldest.slot,
        to: newest.slot,
        head: finalizedSlot,
        inserted: inserted + head,
      };
    }
    await deleteUnfinalized(this.db, this.key, safe, []);
    if (cursor) await this.writeHead(cursor, safe);
    return { kind: 'idle', head: finalizedSlot };
  }

  /** The time of a slot, or null when the node has none (a skipped slot). */
  private async slotTime(slot: bigint): Promise<bigint | null> {
    try {
      return await this.rpc.blockTime(slot);
    } catch {
      return null;
    }
  }

  /**
   * The oldest page of finalized signatures newer than `cursor` (oldest first), and whether it
   * is the newest one (nothing finalized after it when it was read).
   */
  private async nextPage(
    cursor: string | undefined,
  ): Promise<{ signatures: SignatureInfo[]; last: boolean }> {
    const until = cursor ?? this.config.startSignature;
    const fetch = (before: string | undefined) =>
      this.rpc.signatures(this.config.transferProgram, {
        ...(before ? { before } : {}),
        ...(until ? { until } : {}),
        limit: this.config.pageSize,
        commitment: 'finalized',
      });
    const walk = this.walk;
    if (walk && walk.cursor === cursor && walk.befores.length > 1) {
      const before = walk.befores.pop();
      const list = await fetch(before);
      if (list.length > 0) return { signatures: list.reverse(), last: false };
    }
    const befores: (string | undefined)[] = [];
    let before: string | undefined;
    let page: SignatureInfo[] = [];
    for (;;) {
      const list = await fetch(before);
      if (list.length === 0) break;
      befores.push(before);
      page = list;
      if (list.length < this.config.pageSize) break;
      before = list[list.length - 1]!.signature;
    }
    befores.pop();
    this.walk = { cursor, befores };
    return { signatures: page.reverse(), last: befores.length === 0 };
  }

  /**
   * The transfer records of `signatures` read at `commitment` (failed transactions skipped),
   * v1 records completed from their `MessageSent` accounts where those still exist.
   */
  private async transfersOf(
    signatures: readonly SignatureInfo[],
    commitment: ReadCommitment,
  ): Promise<TransferRow[]> {
    const ok = signatures.filter((s) => !s.failed);
    const txs = await mapLimit(ok, FETCH_CONCURRENCY, (s) =>
      this.rpc.transaction(s.signature, commitment),
    );
    const origin = {
      network: this.config.network,
      domain: this.config.domain,
      programs: this.programs,
    };
    const found = txs.flatMap((tx, i) => {
      if (!tx) throw new Error(`transaction ${ok[i]!.signature} not found at ${commitment}`);
      return decodeSolanaTransfers(tx, origin, commitment === 'finalized');
    });
    const v1 = found.filter((t) => t.row.version === 1);
    const data = await this.rpc.accountsData(
      v1.map((t) => t.messageAccount),
      commitment,
    );
    const messages = new Map<string, MessageSentV1Account['message']>();
    v1.forEach((t, i) => {
      const bytes = data[i];
      if (bytes && startsWith(bytes, DISCRIMINATORS.messageSent)) {
        messages.set(t.messageAccount, messageSentV1Codec.decode(bytes.subarray(8)).message);
      }
    });
    return found.map((t) => withMessage(t.row, messages.get(t.messageAccount)));
  }

  /**
   * Pending rows (confirmed, not finalized, above `safe`) and the receipts found, written with
   * the cursor unchanged.
   *
   * @returns the number of records inserted.
   */
  private async writeHead(cursor: StoredCursor, safe: bigint): Promise<number> {
    const pending = (
      await this.rpc.signatures(this.config.transferProgram, {
        until: cursor.hash,
        limit: HEAD_LIMIT,
        commitment: 'confirmed',
      })
    ).filter((s) => s.slot > safe);
    const transfers =
      pending.length > 0 ? await this.transfersOf(pending.reverse(), 'confirmed') : [];
    const received = await this.lookUpReceives();
    if (transfers.length === 0 && received.length === 0) return 0;
    if (!this.locks.holds(this.lockKey)) return 0;
    return writeBatch(this.db, {
      chain: this.key,
      expected: cursor,
      next: { number: cursor.number, hash: cursor.hash },
      transfers,
      received,
      safeBlock: safe,
    });
  }

  /**
   * The used-nonce account a receive of `record` creates (`usedNonceAddress`: v2 one per
   * message, v1 one per 6,400 nonces of a source domain).
   */
  private usedNonceAccount(record: AwaitedReceive): Promise<string> {
    return record.version === 2
      ? usedNonceAddress(this.config.messageTransmitterV2, {
          version: 2,
          nonce: Buffer.from(record.cctp_nonce.slice(2).padStart(64, '0'), 'hex'),
        })
      : usedNonceAddress(this.config.messageTransmitterV1, {
          version: 1,
          sourceDomain: record.source_domain,
          nonce: BigInt(record.cctp_nonce),
        });
  }

  /**
   * Looks up the receives of the due records bound for this cluster: the finalized
   * transactions of each one's used-nonce account, decoded for `MessageReceived` of the
   * configured transmitters. A record not received yet is asked again after a wait doubling
   * from the poll interval up to 5 minutes (kept in this process).
   */
  private async lookUpReceives(): Promise<ReceivedRow[]> {
    const now = this.now();
    const awaited = await awaitedReceives(this.db, this.key, 200);
    const due = awaited
      .filter((r) => (this.receiveChecks.get(r.id)?.at ?? 0) <= now)
      .slice(0, RECEIVE_LOOKUPS_PER_STEP);
    const live = new Set(awaited.map((r) => r.id));
    for (const id of this.receiveChecks.keys()) if (!live.has(id)) this.receiveChecks.delete(id);
    const rows: ReceivedRow[] = [];
    const seen = new Set<string>();
    for (const record of due) {
      const account = await this.usedNonceAccount(record);
      const sigs = await this.rpc.signatures(account, { limit: 1_000, commitment: 'finalized' });
      let found = false;
      for (const s of sigs.reverse()) {
        if (s.failed || seen.has(s.signature)) continue;
        seen.add(s.signature);
        const tx = await this.rpc.transaction(s.signature, 'finalized');
        if (!tx) continue;
        const receipts = decodeSolanaReceived(tx, this.key, this.programs);
        rows.push(...receipts);
        if (
          receipts.some(
            (r) =>
              r.version === record.version &&
              r.source_domain === record.source_domain &&
              r.nonce === record.cctp_nonce,
          )
        ) {
          found = true;
          break;
        }
      }
      if (found) {
        this.receiveChecks.delete(record.id);
      } else {
        const attempts = (this.receiveChecks.get(record.id)?.attempts ?? 0) + 1;
        const wait = Math.min(this.config.pollIntervalMs * 2 ** attempts, RECEIVE_MAX_BACKOFF_MS);
        this.receiveChecks.set(record.id, { at: now + wait, attempts });
      }
    }
    return rows;
  }
}
