/**
 * A small seeded pseudo-random generator (sfc32 seeded through splitmix32) so demo data is the
 * same on every run for the same seed. Not for cryptography.
 */

/** A deterministic random source. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
  /** `n` random lower-case hex characters. */
  hex(n: number): string;
  /** An independent generator derived from this one and `label` (stable across code changes elsewhere). */
  fork(label: string): Rng;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** 32-bit FNV-1a of a string, to turn labels into seeds. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

const HEX = '0123456789abcdef';

/**
 * Creates a generator from an integer seed.
 *
 * @example const rng = createRng(42); rng.int(1, 6);
 */
export function createRng(seed: number): Rng {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i += 1) u32();
  const rng: Rng = {
    next: () => u32() / 4_294_967_296,
    int: (min, max) => min + Math.floor((u32() / 4_294_967_296) * (max - min + 1)),
    chance: (p) => u32() / 4_294_967_296 < p,
    pick: <T>(items: readonly T[]): T =>
      items[Math.floor((u32() / 4_294_967_296) * items.length)] as T,
    bytes: (n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i += 4) {
        const word = u32();
        for (let j = 0; j < 4 && i + j < n; j += 1) out[i + j] = (word >>> (8 * j)) & 0xff;
      }
      return out;
    },
    hex: (n) => {
      let out = '';
      while (out.length < n) {
        let word = u32();
        for (let j = 0; j < 8 && out.length < n; j += 1) {
          out += HEX[word & 0xf];
          word >>>= 4;
        }
      }
      return out;
    },
    fork: (label) => createRng((u32() ^ fnv1a(label)) >>> 0),
  };
  return rng;
}
