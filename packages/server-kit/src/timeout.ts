/**
 * A bound on how long a caller waits for a promise: the probes' answers (docs/operations.md
 * "Readiness") and every Redis command of the KV store (kv.ts).
 */

/**
 * Settles as `promise` does, or rejects after `ms` milliseconds, whichever comes first. The timer
 * is cleared once either settles (it never keeps the process alive); `promise` itself is not
 * cancelled, and a rejection of it after the timeout is handled (not an unhandled rejection).
 * One promise and one timer per call (it is on the path of every Redis command).
 *
 * @param ms the wait, milliseconds.
 * @param mapError turns the rejection (`promise`'s, or the timeout's Error) into the error the
 *   returned promise rejects with (default: an Error as it is, another value wrapped in one).
 * @throws what `promise` rejects with, or Error `no answer within <ms> ms` on the timeout, each
 *   through `mapError`.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  mapError: (err: unknown) => Error = (err) =>
    err instanceof Error ? err : new Error(String(err)),
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(mapError(new Error(`no answer within ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(mapError(err));
      },
    );
  });
}
