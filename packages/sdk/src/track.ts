/**
 * Following a transfer to settlement from the Monitoring API (docs/api.md "Transaction by hash
 * (either leg)"): pending (indexed) -> confirmed (deep enough) -> attested (Circle's attestation
 * seen) -> received (destination transaction, `success` or `failed`). The lookup is polled; when
 * the server offers the event stream `GET /transactionsmainnet/stream`, its events wake the next
 * lookup at once (the lookup stays the source of truth), and polling continues at a slower pace.
 */
import type { TransactionRecord } from '@ctss/domain-types';
import { TrackingEndedError } from './errors.js';
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
  /** Lookup interval, ms (default 2000; 4x that while the event stream is open). */
  readonly pollIntervalMs?: number;
  /** Use the event stream when the server offers it (default true). */
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

/**
 * Opens the event stream when the server has one; every event calls `wake`. Resolves false when
 * the server does not offer it (any non-2xx or a non event-stream answer).
 */
async function openStream(
  client: MonitoringClient,
  wake: () => void,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const res = await (client.http.fetch ?? fetch)(`${client.baseUrl}/transactionsmainnet/stream`, {
      headers: { accept: 'text/event-stream', ...client.http.headers },
      signal,
    });
    if (!res.ok || !res.body || !res.headers.get('content-type')?.includes('text/event-stream')) {
      await res.body?.cancel();
      return false;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value.includes('data:')) wake();
        }
      } catch {
        // Stream closed or aborted: polling goes on.
      }
    })();
    return true;
  } catch {
    return false;
  }
}

/**
 * Tracks the transfer sent in transaction `hash` until it settles.
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
  let wakeUp: () => void = () => {};
  const streaming =
    options.stream === false ? false : await openStream(client, () => wakeUp(), inner.signal);
  const stages: TransferProgress[] = [];
  try {
    for (;;) {
      if (options.signal?.aborted) throw new TrackingEndedError('aborted', hash);
      if (Date.now() > deadline) throw new TrackingEndedError('timeout', hash);
      let records: TransactionRecord[] = [];
      try {
        records = await client.byHash(hash, { signal: inner.signal });
      } catch (err) {
        if (options.signal?.aborted) throw new TrackingEndedError('aborted', hash);
        throw err;
      }
      const record =
        records.find((r) => r.source_tx_hash.toLowerCase() === hash.toLowerCase()) ?? records[0];
      if (record) {
        const target = TRANSFER_STAGES.indexOf(reached(record));
        for (let i = stages.length; i <= target; i++) {
          const stage = TRANSFER_STAGES[i]!;
          const progress = { stage, at: timeOf(stage, record), record };
          stages.push(progress);
          options.onProgress?.(progress);
        }
        if (record.destination_tx_status !== 'pending') {
          return { status: record.destination_tx_status, record, stages };
        }
      }
      const wait = Math.min(
        streaming ? interval * 4 : interval,
        Math.max(0, deadline - Date.now()) + 1,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        function done() {
          clearTimeout(timer);
          wakeUp = () => {};
          options.signal?.removeEventListener('abort', done);
          resolve();
        }
        wakeUp = done;
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    inner.abort();
  }
}
