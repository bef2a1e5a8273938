/** Following what the Monitoring API answers over HTTP until it reaches a state. */

/** Generous: the indexer loops poll every 100 ms; only a broken path comes near it. */
export const FOLLOW_DEADLINE_MS = 60_000;

/**
 * Calls `read` every 100 ms until `done` holds for its value, and resolves with that value.
 *
 * @throws Error naming `what` and the last value when it has not within `deadlineMs` ms.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  deadlineMs = FOLLOW_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * GETs `url` and resolves with its JSON body (not validated: `T` is what the test expects).
 *
 * @throws Error with the status and body when the answer is not 2xx.
 */
export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
