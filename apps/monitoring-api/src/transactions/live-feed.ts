/**
 * The live feed of one replica (docs/api.md "Live feed (Server-Sent Events)"): the change-log
 * reader on its own LISTEN connection ({@link ChangeFeed}) feeding the hub of the replica's open
 * streams ({@link StreamHub}). Built by server.ts (and tests) from configuration; `createApp`
 * mounts its route.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config.js';
import { ChangeFeed, type ListenerState } from './changes.js';
import { StreamHub, type StreamLimits } from './stream-hub.js';
import type { LiveFeed } from './stream-router.js';

/** The live feed's state in `GET /health`. */
interface LiveFeedHealth {
  /** The LISTEN connection: `listening`, or `connecting` / `reconnecting` / `stopped`. */
  readonly listener: ListenerState;
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
 * Builds the live feed over the primary at `url` (not started).
 *
 * @param timeouts the request pools' connect and statement timeouts, ms.
 */
export function createLiveFeed(options: {
  readonly url: string;
  readonly logger: Logger;
  readonly limits: StreamLimits;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
}): RunningLiveFeed {
  const hub = new StreamHub(options.limits);
  const feed = new ChangeFeed({
    url: options.url,
    logger: options.logger,
    connectTimeoutMs: options.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
    onChanges: (events) => hub.publish(events),
  });
  return {
    feed,
    hub,
    start: () => feed.start(),
    endStreams: () => hub.closeAll(),
    async close() {
      hub.closeAll();
      await feed.close();
    },
    health: () => ({
      listener: feed.state,
      ...hub.stats,
      last_event_id: feed.head.toString(),
    }),
  };
}
