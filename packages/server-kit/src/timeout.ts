/** A bound on how long a caller waits for a promise (the probes' answers, docs/operations.md "Readiness"). */

/**
 * Settles as `promise` does, or rejects after `ms` milliseconds, whichever comes first. The timer
 * is cleared once either settles (it never keeps the process alive); `promise` itself is not
 * cancelled, and a rejection of it after the timeout is handled (not an unhandled rejection).
 *
 * @param ms the wait, milliseconds.
 * @throws what `promise` rejects with, or Error `no answer within <ms> ms` on the timeout.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
