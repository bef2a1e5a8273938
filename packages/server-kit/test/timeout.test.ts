/**
 * The bound on a wait (timeout.ts): the promise's value or error within the bound, the timeout's
 * error after it, each through the caller's error mapping, and no unhandled rejection from a
 * promise that fails after the bound.
 */
import { describe, expect, it } from '@jest/globals';
import { withTimeout } from '../src/index.js';

/** A promise settled by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class Mapped extends Error {}

describe('withTimeout', () => {
  it("settles with the promise's value or error when it settles in time", async () => {
    await expect(withTimeout(Promise.resolve(7), 1_000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow(
      'refused',
    );
  });

  it('rejects after the bound, and a later rejection of the promise is handled', async () => {
    const late = deferred<number>();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const started = Date.now();
      await expect(withTimeout(late.promise, 50)).rejects.toThrow('no answer within 50 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      late.reject(new Error('too late'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("passes both the promise's error and the timeout's through the mapping", async () => {
    const map = (err: unknown) => new Mapped(`mapped: ${(err as Error).message}`, { cause: err });
    const failed = withTimeout(Promise.reject(new Error('down')), 1_000, map);
    await expect(failed).rejects.toBeInstanceOf(Mapped);
    await expect(failed).rejects.toThrow('mapped: down');
    const never = deferred<number>();
    const timedOut = withTimeout(never.promise, 20, map);
    await expect(timedOut).rejects.toBeInstanceOf(Mapped);
    await expect(timedOut).rejects.toThrow('mapped: no answer within 20 ms');
  });
});
