/**
 * The open live-feed streams of one replica (docs/api.md "Live feed (Server-Sent Events)"): each
 * change read by the {@link ChangeFeed} is matched against every stream's filter and its SSE frame
 * (built once per change) written to the matching ones; a comment line goes to every stream every
 * heartbeat interval. Changes go out a batch (one read of the log) at a time; a stream whose
 * unsent bytes still exceed the per-client buffer limit when the next batch is ready (a client
 * not reading) is dropped, so it never holds more than the limit plus one batch, nor delays the
 * others (docs/decisions.md "D142. Live feed limits").
 */
import type { ServerResponse } from 'node:http';
import type { ChangeEvent } from './changes.js';

/** The filters of a stream (the feed's, as parsed by the route); absent = any. */
export interface StreamFilter {
  /** Sender addresses, normalized (EVM hex lower-case). */
  readonly senders?: ReadonlySet<string>;
  readonly recipients?: ReadonlySet<string>;
  readonly sourceDomain?: number;
  readonly destinationDomain?: number;
  /** Origin or destination domain. */
  readonly domain?: number;
  /** `destination_tx_status`. */
  readonly status?: string;
  /** A transaction hash: `source_tx_hash` or `destination_tx_hash` (normalized). */
  readonly txHash?: string;
}

/** Whether `event` passes `filter` (the feed's semantics: every given filter must hold). */
function matchesFilter(filter: StreamFilter, event: ChangeEvent): boolean {
  if (filter.senders !== undefined && !filter.senders.has(event.sender)) return false;
  if (filter.recipients !== undefined && !filter.recipients.has(event.recipient)) return false;
  if (filter.sourceDomain !== undefined && event.sourceDomain !== filter.sourceDomain) return false;
  if (
    filter.destinationDomain !== undefined &&
    event.destinationDomain !== filter.destinationDomain
  )
    return false;
  if (
    filter.domain !== undefined &&
    event.sourceDomain !== filter.domain &&
    event.destinationDomain !== filter.domain
  )
    return false;
  if (filter.status !== undefined && event.status !== filter.status) return false;
  if (
    filter.txHash !== undefined &&
    event.sourceTxHash !== filter.txHash &&
    event.destinationTxHash !== filter.txHash
  )
    return false;
  return true;
}

/** The limits of the streams of one replica. */
export interface StreamLimits {
  /** Open streams of the replica; one more is a 503 (STREAM_MAX_CLIENTS). */
  readonly maxClients: number;
  /** Open streams of one client address; one more is a 429 (STREAM_MAX_CLIENTS_PER_ADDRESS). */
  readonly maxClientsPerAddress: number;
  /** Unsent bytes of one stream above which it is dropped (STREAM_CLIENT_BUFFER_BYTES). */
  readonly clientBufferBytes: number;
  /** Seconds between heartbeat comments (STREAM_HEARTBEAT_SECONDS). */
  readonly heartbeatSeconds: number;
}

/** Backlog changes written per turn of the event loop. */
const BACKLOG_BATCH = 200;

/** Changes held for a stream still reading its backlog, beyond which it is dropped. */
const HELD_MAX = 100_000;

/**
 * Why a stream gets a `reset` event, after which the client reads the feed again (docs/api.md
 * "Live feed (Server-Sent Events)"): changes lost to the change log's retention while the stream
 * was open (docs/decisions.md "D343. Open streams are told of lost changes"), or a `Last-Event-ID`
 * older than the log keeps or one it never gave.
 */
export type ResetReason = 'changes_lost' | 'event_id_expired' | 'unknown_event_id';

/** The SSE `reset` event of `reason` (`data: {"reason": ...}`). */
export function resetFrame(reason: ResetReason): string {
  return `event: reset\ndata: {"reason":"${reason}"}\n\n`;
}

/** The event that tells a stream that changes before the next one were lost. */
const CHANGES_LOST_FRAME = resetFrame('changes_lost');

/** One batch of the feed (one read of the log) held for a stream catching up. */
interface HeldBatch {
  readonly events: readonly ChangeEvent[];
  /** Changes before this batch were lost to the change log's retention. */
  readonly missed: boolean;
}

/** Why a stream was refused. */
export type Refusal = 'replica' | 'address';

/** One open stream. */
class Stream {
  /** Batches of the feed held back while the client's backlog is being read and sent. */
  held: HeldBatch[] | undefined = [];
  /** Changes in {@link Stream.held}. */
  heldCount = 0;
  /** The `seq` of the last change sent or skipped for this client. */
  last: bigint;

  constructor(
    readonly res: ServerResponse,
    readonly filter: StreamFilter,
    readonly address: string,
    start: bigint,
  ) {
    this.last = start;
  }
}

/** A registered stream, as the route holds it. */
export interface StreamHandle {
  /**
   * Sends the backlog (oldest first, a batch per turn of the event loop), then the changes held
   * meanwhile; the stream goes live.
   */
  goLive(backlog: readonly ChangeEvent[], through: bigint): Promise<void>;
  /** Writes raw SSE text (e.g. the `retry:` line or a `reset` event); false when dropped. */
  write(text: string): boolean;
  /** Unregisters the stream (its response closed). */
  close(): void;
}

/** Counters of the hub, for `/health` and metrics. */
export interface HubStats {
  readonly clients: number;
  /** Streams dropped for exceeding the buffer limit since start. */
  readonly dropped: number;
}

/** The streams of one replica. */
export class StreamHub {
  readonly #streams = new Set<Stream>();
  readonly #perAddress = new Map<string, number>();
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly limits: StreamLimits) {}

  /** Open streams and drops so far. */
  get stats(): HubStats {
    return { clients: this.#streams.size, dropped: this.#dropped };
  }

  /**
   * Registers a stream whose headers are sent, holding the feed's changes until
   * {@link StreamHandle.goLive}; `start` is the last `seq` the client has (changes up to it are
   * not sent again).
   *
   * @returns the handle, or why it is refused (over a cap, or the hub is closed: `replica`).
   */
  open(
    res: ServerResponse,
    filter: StreamFilter,
    address: string,
    start: bigint,
  ): StreamHandle | Refusal {
    if (this.#closed || this.#streams.size >= this.limits.maxClients) return 'replica';
    const count = this.#perAddress.get(address) ?? 0;
    if (count >= this.limits.maxClientsPerAddress) return 'address';
    const stream = new Stream(res, filter, address, start);
    this.#streams.add(stream);
    this.#perAddress.set(address, count + 1);
    this.#startHeartbeat();
    return {
      goLive: async (backlog, through) => {
        for (let i = 0; i < backlog.length; i += BACKLOG_BATCH) {
          if (i > 0) await new Promise((resolve) => setImmediate(resolve));
          if (!this.#sendBatch(stream, backlog.slice(i, i + BACKLOG_BATCH))) return;
        }
        if (through > stream.last) stream.last = through;
        const held = stream.held ?? [];
        stream.held = undefined;
        for (const batch of held) if (!this.#deliver(stream, batch)) return;
      },
      write: (text) => this.#write(stream, text),
      close: () => this.#remove(stream),
    };
  }

  /**
   * Hands one batch of changes (oldest first) to every stream (held by those catching up). With
   * `missed` (changes before the batch were lost to the change log's retention, which may leave
   * the batch empty), each stream first gets a `reset` event (`{"reason":"changes_lost"}`), in
   * its place among the changes.
   */
  publish(events: readonly ChangeEvent[], missed = false): void {
    const batch: HeldBatch = { events, missed };
    for (const stream of [...this.#streams]) {
      if (stream.held !== undefined) {
        stream.held.push(batch);
        stream.heldCount += events.length;
        // A client that far behind is one the buffer limit would drop anyway.
        if (stream.heldCount > HELD_MAX) this.#drop(stream);
      } else this.#deliver(stream, batch);
    }
  }

  /** Sends one batch of the feed, after its `reset` event when changes before it were lost. */
  #deliver(stream: Stream, batch: HeldBatch): boolean {
    if (batch.missed && !this.#write(stream, CHANGES_LOST_FRAME)) return false;
    return this.#sendBatch(stream, batch.events);
  }

  /**
   * Sends the events the stream has not had and its filter matches; first drops it (false) when
   * what was written before is still unsent beyond the limit.
   */
  #sendBatch(stream: Stream, events: readonly ChangeEvent[]): boolean {
    if (!this.#within(stream)) return false;
    let frames = '';
    for (const event of events) {
      if (event.seq <= stream.last) continue;
      stream.last = event.seq;
      if (matchesFilter(stream.filter, event)) frames += event.frame;
    }
    if (frames !== '') stream.res.write(frames);
    return true;
  }

  /** Whether the stream is open and its unsent bytes are within the limit; else drops it. */
  #within(stream: Stream): boolean {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return false;
    if (res.writableLength > this.limits.clientBufferBytes) {
      this.#drop(stream);
      return false;
    }
    return true;
  }

  /** Writes `text` (a comment, `retry` or `reset`) unless the stream is over its limit. */
  #write(stream: Stream, text: string): boolean {
    if (!this.#within(stream)) return false;
    stream.res.write(text);
    return true;
  }

  /** Cuts a client that does not read (its connection is destroyed; others are not affected). */
  #drop(stream: Stream): void {
    this.#dropped += 1;
    this.#remove(stream);
    stream.res.destroy();
  }

  #remove(stream: Stream): void {
    if (!this.#streams.delete(stream)) return;
    const count = (this.#perAddress.get(stream.address) ?? 1) - 1;
    if (count <= 0) this.#perAddress.delete(stream.address);
    else this.#perAddress.set(stream.address, count);
    if (this.#streams.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #startHeartbeat(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      for (const stream of this.#streams) this.#write(stream, ': heartbeat\n\n');
    }, this.limits.heartbeatSeconds * 1000);
    this.#timer.unref();
  }

  /**
   * Ends every stream and refuses new ones (the drain: clients reconnect to another replica with
   * their `Last-Event-ID`).
   */
  closeAll(): void {
    this.#closed = true;
    for (const stream of [...this.#streams]) {
      this.#remove(stream);
      if (!stream.res.destroyed) stream.res.end();
    }
  }
}
