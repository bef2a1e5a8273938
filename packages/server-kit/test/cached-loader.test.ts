import { describe, expect, it } from '@jest/globals';
import { createCachedLoader, textCodec } from '../src/cached-loader.js';
import { createMemoryKvStore } from '../src/kv.js';

describe('createCachedLoader', () => {
  it('runs one loader for concurrent misses of one key and serves later calls from the cache', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 30 });
    let runs = 0;
    const loader = async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 20));
      return `value-${runs}`;
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => load('k', loader, textCodec)),
    );
    expect(new Set(results)).toEqual(new Set(['value-1']));
    expect(await load('k', loader, textCodec)).toBe('value-1');
    expect(runs).toBe(1);
  });

  it('loads every time when the TTL is 0, still sharing one in-flight load', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 0 });
    let runs = 0;
    const loader = () => Promise.resolve(`v${++runs}`);
    await Promise.all([load('k', loader, textCodec), load('k', loader, textCodec)]);
    expect(runs).toBe(1);
    expect(await load('k', loader, textCodec)).toBe('v2');
  });

  it('does not cache a failed load', async () => {
    const load = createCachedLoader(createMemoryKvStore(), { ttlSeconds: 30 });
    await expect(load('k', () => Promise.reject(new Error('db down')), textCodec)).rejects.toThrow(
      'db down',
    );
    expect(await load('k', () => Promise.resolve('ok'), textCodec)).toBe('ok');
  });
});
