import { describe, expect, it } from '@jest/globals';
import { createRng } from './rng.js';

describe('createRng', () => {
  it('when seeded alike, then it yields the same sequence; other seeds differ', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return [rng.next(), rng.int(1, 1000), rng.hex(16)];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('when drawing integers, then they stay within the inclusive bounds and cover them', () => {
    const rng = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i += 1) {
      const value = rng.int(3, 9);
      expect(value).toBeGreaterThanOrEqual(3);
      expect(value).toBeLessThanOrEqual(9);
      seen.add(value);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('when asked for hex and bytes, then lengths and alphabet are right', () => {
    const rng = createRng(2);
    expect(rng.hex(40)).toMatch(/^[0-9a-f]{40}$/);
    expect(rng.bytes(33)).toHaveLength(33);
  });
});
