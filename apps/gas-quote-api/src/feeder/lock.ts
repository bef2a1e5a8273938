/**
 * Single-writer lock for the price feeder on the KvStore: `SET key token NX EX ttl` to acquire,
 * renewed by the owner each cycle and released only by the owner (compare-and-expire /
 * compare-and-delete, Lua on Redis), so at most one feeder replica writes prices at a time.
 * With the in-process store the process is alone and the same code trivially holds the lock.
 */
import { randomUUID } from 'node:crypto';
import type { KvStore } from '@ctss/server-kit';

/** A lease-based lock; see {@link createFeederLock}. */
export interface LeaderLock {
  /** Acquires the lock, or extends it when already held. Resolves to whether this process holds it. */
  acquireOrRenew(): Promise<boolean>;
  /** Releases the lock when (and only when) this process holds it. */
  release(): Promise<void>;
  /** Random token identifying this holder (the value stored under the key). */
  readonly token: string;
}

/**
 * Builds a {@link LeaderLock} on `key` with a lease of `ttlSeconds`. Choose the lease longer than
 * the refresh interval, so a live owner renews before expiry and a dead one loses it.
 */
export function createFeederLock(kv: KvStore, key: string, ttlSeconds: number): LeaderLock {
  const token = randomUUID();
  return {
    token,
    async acquireOrRenew() {
      if (await kv.expireIfEquals(key, token, ttlSeconds)) return true;
      return kv.setIfAbsent(key, token, ttlSeconds);
    },
    async release() {
      await kv.delIfEquals(key, token);
    },
  };
}
