/**
 * The recent record changes one replica has received from the change log (docs/decisions.md
 * "D310. Closed pages holding a pending record"): for each mainnet record's `source_tx_hash`, the
 * app-clock time its last change reached this replica (the live feed's delivery: the replica's
 * own LISTEN, or the Redis fan-out, transactions/change-relay.ts). The closed-window store
 * (closed-windows.ts) asks it whether a kept page's pending records are unchanged since the page
 * was rendered; nothing is polled.
 *
 * The answer is only "unchanged" when this replica has received every change since the time asked
 * about: from the first moment its live feed was seen delivering (changes committed before that
 * are history it never saw; the watch's creation at the earliest), and not before a change forgotten to bound memory (the oldest
 * entries go first once {@link MAX_WATCHED_RECORDS} is reached).
 *
 * With Redis, each replica also writes the time of each change it receives under
 * `feed:changed:<source_tx_hash>` for {@link SHARED_CHANGE_TTL_SECONDS}: a replica asked about a
 * time before it was receiving (a page another replica rendered before this one started) reads
 * those keys instead. Changes committed while no replica ran are in neither: a page kept then
 * stays until its own lifetime ends (closed-windows.ts).
 *
 * Changes the live feed lost to the change log's retention (it fell further behind than the log
 * keeps, changes.ts; docs/decisions.md "D330. Changes lost to the change log's retention") are in
 * neither either: a delivery marked `missed` moves this replica's `receivingSince` to now and
 * writes the time under {@link MISSED_KEY}, and no replica vouches for a time before the last
 * such loss.
 */
import type { KvStore } from '@ctss/server-kit';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { ChangeEvent } from './changes.js';

/** Records whose last change time is remembered (about 150 bytes each). */
const MAX_WATCHED_RECORDS = 50_000;

/** Seconds a change's time is kept in Redis: at least a pending page's lifetime (closed-windows.ts). */
const SHARED_CHANGE_TTL_SECONDS = 3_700;

/** Redis key of the last time a replica's live feed lost changes to the log's retention. */
const MISSED_KEY = 'feed:changes-missed';

/** What the watch listens to: the live feed's delivered changes (live-feed.ts). */
export interface ChangeListeners {
  /**
   * True once the live feed knows its position in the change log: every change committed from
   * then on reaches the listeners (in `seq` order, across reconnects and relay gaps).
   */
  readonly delivering: boolean;
  /**
   * Calls `listener` with each batch of mainnet changes delivered (an exception it throws is
   * logged and goes no further), `missed` when changes before it were lost to the change log's
   * retention (the batch may then be empty); returns its removal.
   */
  listen(listener: (events: readonly ChangeEvent[], missed: boolean) => void): () => void;
}

/** The changes seen ({@link createChangeWatch}). */
export interface ChangeWatch {
  /**
   * Whether none of the records of `sourceTxHashes` changed at or after `since` (app-clock epoch
   * ms), known from this replica's changes when it received every change since then, else from
   * the changes in Redis (see the module comment); false when neither can tell (no Redis, or
   * Redis fails). After {@link ChangeWatch.close}, from Redis alone. Never rejects.
   */
  unchangedSince(sourceTxHashes: readonly string[], since: number): Promise<boolean>;
  /**
   * Stops listening to the source and forgets the changes seen, so the watch holds neither a
   * listener of the live feed nor its cache (call it when the app that owns the watch is done;
   * the live feed outlives it). Idempotent.
   */
  close(): void;
}

/**
 * Starts watching `source`'s changes; the clock stamps each change as it arrives. `kv`: the shared
 * store (its Redis form is used, see the module comment).
 */
export function createChangeWatch(source: ChangeListeners, clock: Clock, kv: KvStore): ChangeWatch {
  const shared = kv.kind === 'redis' ? kv : undefined;
  const sharedKey = (hash: string) => `feed:changed:${hash}`;
  /** Changes before this time may have been missed; undefined until the source delivers. */
  let receivingSince: number | undefined;
  /** Set by `close()`: this replica's changes are no longer received, only Redis can tell. */
  let closed = false;
  const changed = new LRUCache<string, number>({
    max: MAX_WATCHED_RECORDS,
    dispose: (at, _hash, reason) => {
      // A forgotten change: nothing before it can be vouched for any more.
      if (reason === 'evict' && receivingSince !== undefined) {
        receivingSince = Math.max(receivingSince, at + 1);
      }
    },
  });
  const stopListening = source.listen((events, missed) => {
    const now = clock();
    if (missed) {
      // Nothing before now can be vouched for, here or (through the key) by another replica.
      receivingSince = now;
      shared?.set(MISSED_KEY, String(now), SHARED_CHANGE_TTL_SECONDS).catch(() => undefined);
    }
    for (const event of events) {
      changed.set(event.sourceTxHash, now);
      // Best effort: a lost write leaves only the replicas started since without this change.
      shared
        ?.set(sharedKey(event.sourceTxHash), String(now), SHARED_CHANGE_TTL_SECONDS)
        .catch(() => undefined);
    }
  });
  const locallyUnchanged = (hashes: readonly string[], since: number): boolean => {
    for (const hash of hashes) {
      const at = changed.get(hash);
      if (at !== undefined && at >= since) return false;
    }
    return true;
  };
  // Listening from now on: the changes the feed delivers from here reach the watch.
  if (source.delivering) receivingSince = clock();
  return {
    async unchangedSince(sourceTxHashes, since) {
      if (!closed) {
        if (receivingSince === undefined && source.delivering) receivingSince = clock();
        if (!locallyUnchanged(sourceTxHashes, since)) return false;
        if (receivingSince !== undefined && since >= receivingSince) return true;
      }
      if (shared === undefined) return false;
      try {
        const times = await Promise.all(
          [MISSED_KEY, ...sourceTxHashes.map(sharedKey)].map((key) => shared.get(key)),
        );
        return times.every((at) => at === null || Number(at) < since);
      } catch {
        return false;
      }
    },
    close() {
      stopListening();
      closed = true;
      receivingSince = undefined;
      changed.clear();
    },
  };
}
