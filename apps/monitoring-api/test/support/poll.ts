/** Polling a read until its value reaches a state, for the tests that wait on a running system. */

/** Generous: the indexer loops poll every 100 ms; only a broken path comes near it. */
export const POLL_DEADLINE_MS = 60_000;

/** How {@link until} polls. */
export interface PollOptions {
  /** Milliseconds after which it gives up (default {@link POLL_DEADLINE_MS}). */
  readonly deadlineMs?: number;
  /** Milliseconds between two reads (default 100). */
  readonly pauseMs?: number;
}

/**
 * Calls `read` every `pauseMs` ms until `done` holds for its value, and resolves with that value.
 * A rejection of `read` is not retried: it rejects `until` with it (a read that may fail while a
 * backend is down catches its own error).
 *
 * @throws Error naming `what` and the last value when `done` has not held within `deadlineMs` ms.
 */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { deadlineMs = POLL_DEADLINE_MS, pauseMs = 100 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${deadlineMs} ms waiting for ${what}; last: ${shown(value)}`,
      );
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

/** `value` as JSON, bigints as their decimal digits. */
const shown = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ??
  String(value);
