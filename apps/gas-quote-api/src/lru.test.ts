import { LruCache } from './lru.js';

describe('LruCache', () => {
  it('evicts the least recently used entry when full', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
