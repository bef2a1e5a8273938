/**
 * The live feed of one replica (docs/api.md "Live feed (Server-Sent Events)"): the change-log
 * reader on its own connection to the primary ({@link ChangeFeed}) feeding the hub of the
 * replica's open streams ({@link StreamHub}), directly without Redis, through the Redis fan-out
 * ({@link ChangeRelay}) with it. Built by server.ts (and tests) from configuration; `createApp`
 * mounts its route.
 */
import type { KvStore } from '@ctss/server-kit';
import type { Logger } from 'pino';
import type { AppConfig } from '../config.js';
import { ChangeRelay, type ChannelState, type RelayRole } from './change-relay.js';
import type { ChangeListeners } from './change-watch.js';
import { ChangeFeed, type ChangeEvent, type ListenerState } from './changes.js';
import { StreamHub, type StreamLimits } from './stream-hub.js';
import type { ChangeSource, LiveFeed } from './stream-router.js';

/** The live feed's state in `GET /health`. */
interface LiveFeedHealth {
  /**
   * The connection to the primary: `listening` (LISTEN), `standby` (connected, a follower of the
   * Redis fan-out), or `connecting` / `reconnecting` / `stopped`.
   */
  readonly listener: ListenerState;
  /**
   * `leader` (the one replica that LISTENs and publishes to Redis), `follower` (receives from
   * Redis), or `direct` (LISTENs itself: no REDIS_URL, or Redis does not answer).
   */
  readonly role: RelayRole;
  /** The Redis channel (`none` without REDIS_URL). */
  readonly channel: ChannelState | 'none';
  /** Open streams of this replica. */
  readonly clients: number;
  /** Streams dropped for not reading (buffer limit) since start. */
  readonly dropped: number;
  /** The last change-log position read, decimal (the newest event id). */
  readonly last_event_id: string;
}

/** A live feed with its lifecycle. */
export interface RunningLiveFeed extends LiveFeed {
  /** Connects and LISTENs (retried in the background when the database is down; never throws). */
  start(): Promise<void>;
  /** Ends every open stream (the drain); clients reconnect elsewhere with their Last-Event-ID. */
  endStreams(): void;
  /** Ends the streams and closes the LISTEN connection. */
  close(): Promise<void>;
  health(): LiveFeedHealth;
  /** The changes as delivered to the streams, for the closed-window store (change-watch.ts). */
  readonly changes: ChangeListeners;
}

/** The stream limits of STREAM_* configuration. */
export function streamLimitsFromConfig(
  config: Pick<
    AppConfig,
    | 'STREAM_MAX_CLIENTS'
    | 'STREAM_MAX_CLIENTS_PER_ADDRESS'
    | 'STREAM_CLIENT_BUFFER_BYTES'
    | 'STREAM_HEARTBEAT_SECONDS'
  >,
): StreamLimits {
  return {
    maxClients: config.STREAM_MAX_CLIENTS,
    maxClientsPerAddress: config.STREAM_MAX_CLIENTS_PER_ADDRESS,
    clientBufferBytes: config.STREAM_CLIENT_BUFFER_BYTES,
    heartbeatSeconds: config.STREAM_HEARTBEAT_SECONDS,
  };
}

/**
 * Builds the live feed over the primary at `url` (not started). With a Redis `kv` the changes go
 * through the Redis fan-out (docs/decisions.md "D200. Live feed: one listener, fanned out through
 * Redis"); with the in-process store or none, this replica LISTENs itself.
 *
 * @param options.connectTimeoutMs, options.statementTimeoutMs the request pools' timeouts, ms.
 * @param options.leaseSeconds the fan-out lease (STREAM_LEADER_LEASE_SECONDS), default 5.
 * @param options.sessionShared the embedded database (its connections share one session).
 */
export function createLiveFeed(options: {
  readonly url: string;
  readonly logger: Logger;
  readonly limits: StreamLimits;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly kv?: KvStore;
  readonly leaseSeconds?: number;
  /** The embedded database: its connections share one session, so a follower never UNLISTENs. */
  readonly sessionShared?: boolean;
}): RunningLiveFeed {
  const hub = new StreamHub(options.limits);
  const listeners = new Set<(events: readonly ChangeEvent[], missed: boolean) => void>();
  const deliver = (events: readonly ChangeEvent[], missed: boolean) => {
    if (events.length > 0 || missed) hub.publish(events, missed);
    // A failing listener is its own fault: it neither stops the others nor reaches the feed or
    // the relay (whose delivery order it would break).
    for (const listener of listeners) {
      try {
        listener(events, missed);
      } catch (err) {
        options.logger.error({ err }, 'a listener of the live feed failed on a batch of changes');
      }
    }
  };
  const fanOut = options.kv?.kind === 'redis' ? options.kv : undefined;
  let relay: ChangeRelay | undefined;
  const feed = new ChangeFeed({
    url: options.url,
    logger: options.logger,
    connectTimeoutMs: options.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
    // With the fan-out, the relay decides whether this replica LISTENs.
    listen: fanOut === undefined,
    sessionShared: options.sessionShared === true,
    onChanges: (events, from, through, missed) => {
      if (relay !== undefined) relay.onLocal(events, from, through, missed);
      else if (events.length > 0 || missed) deliver(events, missed);
    },
  });
  if (fanOut !== undefined)
    relay = new ChangeRelay({
      kv: fanOut,
      feed,
      deliver,
      leaseSeconds: options.leaseSeconds ?? 5,
      logger: options.logger,
    });
  const head = () => relay?.head ?? feed.head;
  const source: ChangeSource = {
    get running() {
      return feed.state !== 'stopped';
    },
    get readable() {
      return feed.connected;
    },
    get head() {
      return head();
    },
    backlog: (after, max) => feed.backlog(after, max, head()),
  };
  const changes: ChangeListeners = {
    get delivering() {
      return relay !== undefined ? relay.started : feed.headKnown;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    hub,
    changes,
    async start() {
      await feed.start();
      await relay?.start();
    },
    endStreams: () => hub.closeAll(),
    async close() {
      hub.closeAll();
      await relay?.close();
      await feed.close();
    },
    health: () => ({
      listener: feed.state,
      role: relay?.role ?? 'direct',
      channel: relay?.channel ?? 'none',
      ...hub.stats,
      last_event_id: head().toString(),
    }),
  };
}
