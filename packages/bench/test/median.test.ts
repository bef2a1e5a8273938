import { describe, expect, it } from '@jest/globals';
import { median } from '../src/median.js';

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([0.29, 0.21, 0.24])).toBe(0.24);
  });

  it('takes the upper middle value of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
  });

  it('leaves its argument unsorted', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });
});
