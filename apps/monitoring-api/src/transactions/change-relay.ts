/**
 * The Redis fan-out of the live feed (docs/decisions.md "D200. Live feed: one listener, fanned out
 * through Redis"; docs/architecture.md "Live feed across replicas"). One replica at a time holds a
 * lease in Redis (`SET NX EX`, renewed every third of its length) and is the `leader`: its
 * {@link ChangeFeed} LISTENs to PostgreSQL, reads each committed batch of the change log once and
 * publishes it on a Redis channel; every replica (the leader too) subscribes to that channel on
 * the store's dedicated subscriber connection and hands the changes to its own streams. The
 * others are `follower`s: their connection to the primary stays open without LISTEN, for the
 * `Last-Event-ID` backlogs and to repair a gap.
 *
 * Each message names the log positions it covers (`from` exclusive, `through` inclusive), so a
 * replica that missed one (its subscriber reconnected, a message was lost with Redis) sees the
 * gap in the next message and reads the missing positions from the log itself. The leader also
 * publishes its position every renewal (an empty message), which bounds how long a gap can stay
 * unseen. Messages may arrive twice (two leaders for a moment after a takeover): a position is
 * delivered once.
 *
 * When Redis cannot be reached (its connection is lost, or two renewals in a row fail), the
 * replica is `direct`: it
 * LISTENs itself, as without Redis, until Redis answers again; the streams stay open and miss
 * nothing. The API never polls PostgreSQL: the log is read on a notification, on a detected gap,
 * or for a client's backlog.
 */
import { randomBytes } from 'node:crypto';
import type { KvStore } from '@ctss/server-kit';
import type { Logger } from 'pino';
import type { ChangeEvent, ChangeFeed } from './changes.js';

/** What this replica does in the fan-out. */
export type RelayRole = 'leader' | 'follower' | 'direct';

/**
 * The Redis channel as `/health` reports it: `subscribing` until the subscription is confirmed,
 * `subscribed` while messages arrive (the leader's position at least every renewal), `silent`
 * when none arrived for two lease lengths, `unavailable` while Redis does not answer.
 */
export type ChannelState = 'subscribing' | 'subscribed' | 'silent' | 'unavailable';

/**
 * Renewals in a row that may time out on a live connection before the replica LISTENs itself
 * (a loaded process or Redis); a lost connection counts at once.
 */
const FAILURES_BEFORE_DIRECT = 2;

/** The lease key and the channel, under the store's prefix (REDIS_PREFIX). */
const LEASE_KEY = 'feed:stream:leader';
const CHANNEL = 'feed:stream:changes';

/** A change as it travels on the channel (`seq` decimal). */
interface WireEvent extends Omit<ChangeEvent, 'seq'> {
  readonly seq: string;
}

/**
 * One message of the channel: the log positions after `from` up to `through`, their changes, and
 * `missed` when the leader found positions right after `from` already deleted by the log's
 * retention (changes.ts `onChanges`).
 */
interface WireBatch {
  readonly from: string;
  readonly through: string;
  readonly events: readonly WireEvent[];
  readonly missed?: true;
}

/** The message of a batch (JSON text). */
function encode(
  from: bigint,
  through: bigint,
  events: readonly ChangeEvent[],
  missed: boolean,
): string {
  const batch: WireBatch = {
    from: from.toString(),
    through: through.toString(),
    events: events.map((e) => ({ ...e, seq: e.seq.toString() })),
    ...(missed ? { missed: true } : {}),
  };
  return JSON.stringify(batch);
}

const DECIMAL = /^[0-9]{1,19}$/;

/** Whether `value` is a change as the leader sends it. */
function isWireEvent(value: unknown): value is WireEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { seq, frame } = value as Record<string, unknown>;
  return typeof seq === 'string' && DECIMAL.test(seq) && typeof frame === 'string';
}

/** A message as a batch; undefined when it is not one (a foreign publisher on the channel). */
function decode(
  text: string,
): { from: bigint; through: bigint; events: ChangeEvent[]; missed: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { from, through, events, missed } = parsed as Record<string, unknown>;
  if (
    typeof from !== 'string' ||
    typeof through !== 'string' ||
    !DECIMAL.test(from) ||
    !DECIMAL.test(through) ||
    !Array.isArray(events)
  )
    return undefined;
  const list = events as unknown[];
  if (!list.every(isWireEvent)) return undefined;
  return {
    from: BigInt(from),
    through: BigInt(through),
    events: list.map((e) => ({ ...e, seq: BigInt(e.seq) })),
    missed: missed === true,
  };
}

/** Options of {@link ChangeRelay}. */
export interface ChangeRelayOptions {
  /** The Redis store (its prefix namespaces the lease and the channel). */
  readonly kv: KvStore;
  /** This replica's change-log reader, created with `listen: false` (the relay decides). */
  readonly feed: ChangeFeed;
  /**
   * Receives every mainnet change once, in `seq` order (the replica's stream hub); `missed` when
   * changes before this batch were lost to the log's retention (none delivered may be all).
   */
  readonly deliver: (events: readonly ChangeEvent[], missed: boolean) => void;
  /** Lease length, seconds (STREAM_LEADER_LEASE_SECONDS); renewed every third of it. */
  readonly leaseSeconds: number;
  readonly logger: Logger;
}

/** The lease, the channel and the order of delivery of one replica. */
export class ChangeRelay {
  #role: RelayRole = 'follower';
  /** The last log position handed to `deliver` (undefined before the first batch). */
  #delivered: bigint | undefined;
  /** Batches are applied one after another (a gap read awaits the log). */
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #unsubscribe: (() => Promise<void>) | undefined;
  #subscribedAt = 0;
  #lastMessageAt = 0;
  #redisDown = false;
  /** Ticks failed in a row while the connection to Redis was up (slow answers). */
  #failures = 0;
  #stopped = false;
  /** This replica's value in the lease key. */
  readonly #token = randomBytes(12).toString('hex');

  constructor(private readonly options: ChangeRelayOptions) {}

  /** The replica's role now. */
  get role(): RelayRole {
    return this.#role;
  }

  /** The channel's state now. */
  get channel(): ChannelState {
    if (this.#redisDown) return 'unavailable';
    if (this.#unsubscribe === undefined) return 'subscribing';
    const last = Math.max(this.#subscribedAt, this.#lastMessageAt);
    return Date.now() - last > 2 * this.options.leaseSeconds * 1000 ? 'silent' : 'subscribed';
  }

  /**
   * Whether the position of delivery is known (the feed's head at start, else the first batch):
   * every change after it is delivered.
   */
  get started(): boolean {
    return this.#delivered !== undefined;
  }

  /** The last change-log position handed to the streams (the feed's until the first batch). */
  get head(): bigint {
    return this.#delivered ?? this.options.feed.head;
  }

  /**
   * Subscribes, takes a role (the lease, or `direct` when Redis does not answer) and renews it
   * every third of the lease. Never throws: a failure is the `direct` role, retried at each tick.
   */
  async start(): Promise<void> {
    if (this.options.feed.headKnown) this.#delivered = this.options.feed.head;
    await this.#subscribe();
    await this.#tick();
    this.#timer = setInterval(() => void this.#tick(), (this.options.leaseSeconds * 1000) / 3);
    this.#timer.unref();
  }

  /**
   * A batch read by this replica's feed (it listens: leader or direct). The leader publishes it
   * before handing it to its own streams.
   */
  onLocal(events: readonly ChangeEvent[], from: bigint, through: bigint, missed: boolean): void {
    if (this.#role === 'leader') {
      this.options.kv
        .publish(CHANNEL, encode(from, through, events, missed))
        .catch((err: unknown) => {
          // The followers see the gap in the next message, or LISTEN themselves if Redis is gone.
          this.options.logger.warn({ err }, 'live feed: publishing changes to Redis failed');
        });
    }
    this.#enqueue(from, through, events, missed);
  }

  /** A message of the channel (from the leader, possibly this replica). */
  #onMessage(text: string): void {
    this.#lastMessageAt = Date.now();
    const batch = decode(text);
    if (batch === undefined) {
      this.options.logger.warn('live feed: a message on the Redis channel is not a change batch');
      return;
    }
    this.#enqueue(batch.from, batch.through, batch.events, batch.missed);
  }

  #enqueue(from: bigint, through: bigint, events: readonly ChangeEvent[], missed: boolean): void {
    this.#chain = this.#chain.then(() => this.#apply(from, through, events, missed));
  }

  /**
   * Delivers the positions of a batch not delivered yet; reads a gap before it from the log (a
   * gap the retention already deleted is `missed`).
   */
  async #apply(
    from: bigint,
    through: bigint,
    events: readonly ChangeEvent[],
    missedBefore: boolean,
  ): Promise<void> {
    if (this.#stopped) return;
    // The first batch starts the sequence (changes before it are history, as at a feed's start).
    const delivered = (this.#delivered ??= from);
    if (through <= delivered) return;
    let batch: readonly ChangeEvent[];
    let missed = missedBefore;
    if (from > delivered) {
      try {
        const read = await this.options.feed.backlog(
          delivered,
          Number(through - delivered),
          through,
        );
        batch = read.events;
        missed ||= read.truncated;
      } catch (err) {
        // Not delivered: the next message shows the gap again.
        this.options.logger.warn({ err }, 'live feed: reading a missed part of the log failed');
        return;
      }
    } else batch = events;
    const fresh = batch.filter((e) => e.seq > delivered);
    this.#delivered = through;
    if (fresh.length > 0 || missed) this.options.deliver(fresh, missed);
  }

  async #subscribe(): Promise<void> {
    if (this.#unsubscribe !== undefined || this.#stopped) return;
    try {
      this.#unsubscribe = await this.options.kv.subscribe(CHANNEL, (m) => this.#onMessage(m));
      this.#subscribedAt = Date.now();
    } catch (err) {
      this.options.logger.warn({ err }, 'live feed: subscribing to the Redis channel failed');
    }
  }

  /** Renews or tries to take the lease; the leader then publishes its position. */
  async #tick(): Promise<void> {
    if (this.#ticking || this.#stopped) return;
    this.#ticking = true;
    const { kv, leaseSeconds, feed } = this.options;
    try {
      // Renewed when held (also by a replica that fell back to `direct` while holding it).
      const leading =
        (await kv.expireIfEquals(LEASE_KEY, this.#token, leaseSeconds)) ||
        (await kv.setIfAbsent(LEASE_KEY, this.#token, leaseSeconds));
      if (this.#stopped) return;
      if (this.#redisDown)
        this.options.logger.info('live feed: Redis answers again; the fan-out resumes');
      this.#redisDown = false;
      this.#failures = 0;
      this.#become(leading ? 'leader' : 'follower');
      await this.#subscribe();
      if (leading) {
        const head = feed.head;
        await kv.publish(CHANNEL, encode(head, head, [], false));
      }
    } catch (err) {
      if (this.#stopped) return;
      // A lost connection is Redis gone; a slow answer on a live one must repeat to count.
      this.#failures += 1;
      if (kv.redis?.ready === true && this.#failures < FAILURES_BEFORE_DIRECT) return;
      if (!this.#redisDown)
        this.options.logger.warn(
          { err },
          'live feed: Redis does not answer; this replica LISTENs to PostgreSQL itself',
        );
      this.#redisDown = true;
      this.#become('direct');
    } finally {
      this.#ticking = false;
    }
  }

  #become(role: RelayRole): void {
    if (role === this.#role) return;
    this.options.logger.info({ from: this.#role, to: role }, 'live feed: fan-out role changed');
    this.#role = role;
    const { feed } = this.options;
    if (role === 'follower') feed.setListening(false);
    else {
      // Read on from what the streams have (the feed did not read while following).
      if (this.#delivered !== undefined) feed.skipTo(this.#delivered);
      feed.setListening(true);
    }
  }

  /** Stops; a leader gives up its lease so another replica takes over at its next renewal. */
  async close(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = undefined;
    await unsubscribe?.().catch(() => undefined);
    if (this.#role === 'leader')
      await this.options.kv.delIfEquals(LEASE_KEY, this.#token).catch(() => undefined);
  }
}
