/**
 * `Cache-Control` of the feeds, the lookups and the DefiLlama figures (docs/api.md "Compression
 * and HTTP caching"; docs/decisions.md "D58. HTTP caching"). Records change while a transfer is
 * pending (status, destination hash) and rarely afterwards (a corrected record after a reorg), so
 * lifetimes are short except for time windows that closed over a day ago.
 */

/** Seconds a page of an open window (the first page, or any page without an old `end_time`) is fresh. */
export const OPEN_WINDOW_MAX_AGE = 5;

/** Seconds a page of a window that ended more than {@link CLOSED_AFTER_SECONDS} ago is fresh. */
const CLOSED_WINDOW_MAX_AGE = 60;

/** Age of `end_time` after which a window counts as closed, seconds (one day). */
const CLOSED_AFTER_SECONDS = 86_400;

/** Seconds a lookup answer holding a `pending` record is fresh. */
const PENDING_RECORD_MAX_AGE = 5;

/** Seconds a lookup answer whose records are all `success` or `failed` is fresh. */
const SETTLED_RECORD_MAX_AGE = 300;

/** `Cache-Control` of a 404 lookup: the transfer may be indexed within seconds. */
export const NOT_FOUND_CACHE_CONTROL = `public, max-age=${PENDING_RECORD_MAX_AGE}`;

/**
 * `Cache-Control` of an answer over a time window (a feed page, DefiLlama figures):
 * `public, max-age=60` when `endTime` (UNIX seconds, exclusive) is at least a day before `nowMs`
 * (milliseconds since the epoch, the app clock), else (no end, or a recent one) `public, max-age=5`.
 */
export function windowCacheControl(endTime: number | undefined, nowMs: number): string {
  const closed = endTime !== undefined && endTime <= nowMs / 1000 - CLOSED_AFTER_SECONDS;
  return `public, max-age=${closed ? CLOSED_WINDOW_MAX_AGE : OPEN_WINDOW_MAX_AGE}`;
}

/** `Cache-Control` of a lookup answer: long when every record is settled, else short. */
export function recordCacheControl(settled: boolean): string {
  return `public, max-age=${settled ? SETTLED_RECORD_MAX_AGE : PENDING_RECORD_MAX_AGE}`;
}
