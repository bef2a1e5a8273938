/**
 * Single-writer lock for the price feeder on the KvStore, with fencing (docs/decisions.md
 * "D87. A short, fenced feeder lease"): `SET key token NX EX ttl` to acquire, renewed by the owner
 * on a heartbeat every third of the lease (compare-and-expire, Lua on Redis), released only by
 * the owner (compare-and-delete). Every write the owner makes is fenced: it lands only while the
 * lock key still holds the owner's token ({@link KvStore.setIfHeld}), so an owner that lost its
 * lease (paused, cut off) cannot overwrite a newer owner's prices. That is what lets the lease be
 * short: a dead owner's lock is free again within one lease, and a standby's heartbeat takes it
 * over at once. With the in-process store the process is alone and trivially holds the lock.
 */
import { randomUUID } from 'node:crypto';
import { FenceLostError, type KvFence, type KvStore } from '@ctss/server-kit';

/**
 * What {@link LeaderLock.acquireOrRenew} found: `renewed` (this process held it and still does),
 * `acquired` (it was free: first start, a dead owner's lease ran out, or the store lost the key,
 * and with it the data written under it) or `elsewhere` (another holder has it).
 */
type LockState = 'renewed' | 'acquired' | 'elsewhere';

/** A lease-based, fenced lock; see {@link createFeederLock}. */
export interface LeaderLock {
  /**
   * Extends the lock when this process holds it, else takes it when free.
   * @throws KvUnavailableError when the store does not answer.
   */
  acquireOrRenew(): Promise<LockState>;
  /** Releases the lock when (and only when) this process holds it. */
  release(): Promise<void>;
  /** Random token identifying this holder (the value stored under the key). */
  readonly token: string;
  /** The lock key and this holder's token: the condition of every fenced write. */
  readonly fence: KvFence;
  /** Lease length, seconds: a holder that stops renewing loses the lock this long after its last renewal. */
  readonly ttlSeconds: number;
  /**
   * Sets `key` to `value` for `ttlSeconds` only while this process holds the lock.
   * @throws FenceLostError when it does not (the lease passed to another feeder or vanished with the store's data); KvUnavailableError when the store does not answer.
   */
  write(key: string, value: string, ttlSeconds: number): Promise<void>;
}

/**
 * The lease of the feeder lock for a refresh interval, seconds: a third of the interval (at least
 * 2 s), so that with the heartbeat at a third of the lease a standby takes a dead owner's lock
 * within 4/9 of an interval of the owner's last renewal (lease + one heartbeat: 6.7 s at the
 * default 15 s), leaving the rest of the interval for a new process to start and run its cycle.
 */
export function feederLeaseSeconds(intervalSeconds: number): number {
  return Math.max(2, Math.ceil(intervalSeconds / 3));
}

/**
 * Builds a {@link LeaderLock} on `key` with a lease of `ttlSeconds`. The holder renews it every
 * `ttlSeconds / 3` (the feeder's heartbeat), so a live owner keeps it through two failed renewals.
 */
export function createFeederLock(kv: KvStore, key: string, ttlSeconds: number): LeaderLock {
  const token = randomUUID();
  const fence: KvFence = { key, value: token };
  return {
    token,
    fence,
    ttlSeconds,
    async acquireOrRenew() {
      if (await kv.expireIfEquals(key, token, ttlSeconds)) return 'renewed';
      return (await kv.setIfAbsent(key, token, ttlSeconds)) ? 'acquired' : 'elsewhere';
    },
    async release() {
      await kv.delIfEquals(key, token);
    },
    async write(target, value, ttl) {
      if (!(await kv.setIfHeld(target, value, ttl, fence))) throw new FenceLostError(key);
    },
  };
}
