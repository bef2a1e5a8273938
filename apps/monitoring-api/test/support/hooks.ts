/** A resource of one describe block (or test file): made before its tests, released after them. */
import { afterAll, beforeAll } from '@jest/globals';

/**
 * Registers a beforeAll hook that makes the resource with `start` and an afterAll hook that
 * releases it with `stop`. The returned handle reads through to the resource, so it can be
 * declared with `const` where the hooks are and used inside the tests.
 *
 * @throws from the handle's members when read before the beforeAll hook has made the resource.
 */
export function useResource<T extends object>(
  start: () => Promise<T>,
  stop: (resource: T) => Promise<void>,
): T {
  let resource: T | undefined;
  beforeAll(async () => {
    resource = await start();
  });
  afterAll(async () => {
    if (resource) await stop(resource);
  });
  return new Proxy({} as T, {
    get(_target, property) {
      if (!resource) throw new Error('the resource is made in beforeAll: read it inside a test');
      return Reflect.get(resource, property, resource) as unknown;
    },
  });
}
