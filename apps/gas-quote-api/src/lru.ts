/** A small least-recently-used map (insertion order of a Map gives the recency). */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly capacity: number) {
    if (capacity < 1) throw new RangeError('capacity must be positive');
  }
  /** The value for `key` (marking it recently used), or undefined. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }
  /** Stores `value`, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as K);
  }
  get size(): number {
    return this.#map.size;
  }
}
