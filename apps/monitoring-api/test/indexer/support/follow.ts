/**
 * Reading what the Monitoring API answers over HTTP, for the tests that follow a transfer until
 * it reaches a state (with `until`, test/support/poll.ts).
 */

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
