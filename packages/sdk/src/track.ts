/**
 * Following a transfer to settlement from the Monitoring API (docs/api.md "Transaction by hash
 * (either leg)", "Live feed (Server-Sent Events)"): pending (indexed) -> confirmed (deep enough)
 * -> attested (Circle's attestation seen) -> received (destination transaction, `success` or
 * `failed`). When the server offers the event stream `GET /transactionsmainnet/stream?tx_hash=`,
 * the transfer's record arrives with each change (one lookup first, for its state before the
 * stream opened), resumed with `Last-Event-ID` when the connection drops; when it does not (a
 * 404, a 503, no event stream) or a resume is refused, the lookup is polled (docs/decisions.md
 * "D201. trackTransfer follows the event stream, polls without it").
 */
import { TransactionRecord } from '@ctss/domain-types';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TrackingEndedError } from './errors.js';
import { parseJson } from './json.js';
import type { MonitoringClient } from './monitoring-client.js';

/** The stages of a transfer, in order. */
export const TRANSFER_STAGES = ['pending', 'confirmed', 'attested', 'received'] as const;
export type TransferStage = (typeof TRANSFER_STAGES)[number];

/** One stage reached. `at` is the record's time for it when it has one, else when it was seen. */
export interface TransferProgress {
  readonly stage: TransferStage;
  readonly at: Date;
  readonly record: TransactionRecord;
}

/** How tracking ended. */
export interface TrackResult {
  readonly status: 'success' | 'failed';
  readonly record: TransactionRecord;
  /** Every stage reached, in order. */
  readonly stages: readonly TransferProgress[];
}

/** Options of {@link trackTransfer}. */
export interface TrackOptions {
  /** Called once per stage, in order (a skipped stage is reported before the next one). */
  readonly onProgress?: (progress: TransferProgress) => void;
  /** Aborting ends tracking with {@link TrackingEndedError} `aborted`. */
  readonly signal?: AbortSignal;
  /** Give up after this many ms (default 30 minutes). */
  readonly timeoutMs?: number;
  /** Lookup interval while polling (no event stream), ms (default 2000). */
  readonly pollIntervalMs?: number;
  /** Follow the event stream when the server offers it (default true); false: poll only. */
  readonly stream?: boolean;
}

function reached(record: TransactionRecord): TransferStage {
  if (record.destination_tx_status !== 'pending') return 'received';
  if (record.attested_at !== null) return 'attested';
  if (record.confirmed) return 'confirmed';
  return 'pending';
}

function timeOf(stage: TransferStage, record: TransactionRecord): Date {
  const at =
    stage === 'pending'
      ? record.created_at
      : stage === 'attested'
        ? record.attested_at
        : stage === 'received'
          ? record.received_at
          : null;
  return at ? new Date(at) : new Date();
}

/** What the event stream of one transfer gives. */
type StreamItem =
  | { readonly kind: 'record'; readonly record: TransactionRecord }
  /** A `reset` (changes lost, or a resume the server cannot serve) or an event that is not a record: look up. */
  | { readonly kind: 'resync' }
  /** The connection ended (the server drained, the network dropped). */
  | { readonly kind: 'ended' };

/** An open event stream; `next` resolves with the next item, in order. */
interface TransferStream {
  next(): Promise<StreamItem>;
  /** The `id` of the last event received (for `Last-Event-ID`). */
  readonly lastEventId: string | undefined;
  /** The reconnect delay the server asked for (`retry:`), ms. */
  readonly retryMs: number;
}

/** The record of an `insert`/`update` event's data, read losslessly; undefined if it is not one. */
function recordOf(data: string): TransactionRecord | undefined {
  try {
    const parsed = TransactionRecord.safeParse(parseJson(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens `GET /transactionsmainnet/stream?tx_hash=hash` (with `Last-Event-ID` when resuming).
 * Resolves undefined when the server does not offer it: a non-2xx answer (404 on a server
 * without it, 503 when it cannot serve one now), an answer that is not `text/event-stream`, or
 * no answer.
 */
async function openTransferStream(
  client: MonitoringClient,
  hash: string,
  lastEventId: string | undefined,
  retryMs: number,
  signal: AbortSignal,
): Promise<TransferStream | undefined> {
  let res: Response;
  try {
    res = await (client.http.fetch ?? fetch)(
      `${client.baseUrl}/transactionsmainnet/stream?tx_hash=${encodeURIComponent(hash)}`,
      {
        headers: {
          ...client.http.headers,
          accept: 'text/event-stream',
          ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
        },
        signal,
      },
    );
  } catch {
    return undefined;
  }
  if (!res.ok || !res.body || !res.headers.get('content-type')?.includes('text/event-stream')) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const queue: StreamItem[] = [];
  let waiting: ((item: StreamItem) => void) | undefined;
  const push = (item: StreamItem) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(item);
    } else queue.push(item);
  };
  const stream = {
    lastEventId,
    retryMs,
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift()!)
        : new Promise<StreamItem>((resolve) => (waiting = resolve)),
  };
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (event.id !== undefined) stream.lastEventId = event.id;
      if (event.event === 'insert' || event.event === 'update') {
        const record = recordOf(event.data);
        push(record ? { kind: 'record', record } : { kind: 'resync' });
      } else if (event.event === 'reset') push({ kind: 'resync' });
      // `delete` (a reorg): the record comes back with the next insert.
    },
    onRetry(ms: number) {
      stream.retryMs = ms;
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // Closed or aborted.
    }
    push({ kind: 'ended' });
  })();
  return stream;
}

/**
 * Tracks the transfer sent in transaction `hash` until it settles: through the event stream when
 * the server offers it (no lookups but the first, and one after a `reset`), else by polling the
 * lookup.
 *
 * @returns the final status and record, with every stage and its time.
 * @throws {TrackingEndedError} `timeout` after `timeoutMs`, `aborted` when `signal` aborts.
 * @throws {ApiProblemError} for a non-retryable API error (a 404 is "not indexed yet", not an error).
 */
export async function trackTransfer(
  client: MonitoringClient,
  hash: string,
  options: TrackOptions = {},
): Promise<TrackResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  const interval = options.pollIntervalMs ?? 2000;
  const inner = new AbortController();
  const onAbort = () => inner.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const stages: TransferProgress[] = [];

  /** Reports the stages `record` reached; the result when it is settled. */
  const apply = (record: TransactionRecord | undefined): TrackResult | undefined => {
    if (!record) return undefined;
    const target = TRANSFER_STAGES.indexOf(reached(record));
    for (let i = stages.length; i <= target; i++) {
      const stage = TRANSFER_STAGES[i]!;
      const progress = { stage, at: timeOf(stage, record), record };
      stages.push(progress);
      options.onProgress?.(progress);
    }
    return record.destination_tx_status !== 'pending'
      ? { status: record.destination_tx_status, record, stages }
      : undefined;
  };
  /** The transfer's record now (undefined while not indexed). */
  const lookup = async (): Promise<TransactionRecord | undefined> => {
    let records: TransactionRecord[];
    try {
      records = await client.byHash(hash, { signal: inner.signal });
    } catch (err) {
      if (options.signal?.aborted) throw new TrackingEndedError('aborted', hash);
      throw err;
    }
    return records.find((r) => r.source_tx_hash.toLowerCase() === hash.toLowerCase()) ?? records[0];
  };
  /** Resolves with `promise`, or throws when the deadline passes or the caller aborts first. */
  const bounded = <T>(promise: Promise<T>, waitMs = Infinity): Promise<T | undefined> =>
    new Promise<T | undefined>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new TrackingEndedError('aborted', hash));
      const left = deadline - Date.now();
      if (left <= 0) return reject(new TrackingEndedError('timeout', hash));
      const timer = setTimeout(
        () => {
          cleanup();
          if (waitMs < left) resolve(undefined);
          else reject(new TrackingEndedError('timeout', hash));
        },
        Math.min(left, waitMs),
      );
      const aborted = () => {
        cleanup();
        reject(new TrackingEndedError('aborted', hash));
      };
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', aborted);
      };
      options.signal?.addEventListener('abort', aborted, { once: true });
      promise.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (err: unknown) => {
          cleanup();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });

  try {
    if (options.stream !== false) {
      let stream = await bounded(openTransferStream(client, hash, undefined, 2000, inner.signal));
      if (stream) {
        // Looked up once the stream is open: a change committed meanwhile is in one or both.
        const done = apply(await bounded(lookup()));
        if (done) return done;
        while (stream) {
          const item: StreamItem = (await bounded(stream.next()))!;
          let result: TrackResult | undefined;
          if (item.kind === 'record') {
            const { record } = item;
            if (
              record.source_tx_hash.toLowerCase() === hash.toLowerCase() ||
              record.destination_tx_hash?.toLowerCase() === hash.toLowerCase()
            )
              result = apply(record);
          } else if (item.kind === 'resync') result = apply(await bounded(lookup()));
          else {
            // Dropped: resume after the last event; a refused resume falls back to polling.
            await bounded(new Promise(() => undefined), stream.retryMs);
            stream = await bounded(
              openTransferStream(client, hash, stream.lastEventId, stream.retryMs, inner.signal),
            );
          }
          if (result) return result;
        }
      }
    }
    for (;;) {
      const result = apply(await bounded(lookup()));
      if (result) return result;
      await bounded(new Promise(() => undefined), interval);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    inner.abort();
  }
}
