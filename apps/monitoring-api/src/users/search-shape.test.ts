/**
 * Which statement a leaderboard search runs: the trigram index only when the term holds a run of
 * three letters or digits (pg_trgm extracts no trigram otherwise and its index returns every
 * user); the results of both shapes are checked against a plain substring filter in
 * test/users/leaderboard-search.property.int.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { searchShape } from './repository.js';

describe('searchShape', () => {
  it('when there is no search, then no filter', () => {
    expect(searchShape('')).toBe('none');
  });

  it.each(['ali', 'ALI', '.ctss', 'o8a1.', 'a_bcd', 'über', '日本語'])(
    'when %j holds three letters or digits in a row, then the trigram index serves it',
    (term) => {
      expect(searchShape(term)).toBe('trigram');
    },
  );

  it.each(['a', 'qu', 'a.b', 'a_b', '%%%', '\\', '12.ct', "'; --"])(
    'when %j has no run of three letters or digits, then the rank order is scanned',
    (term) => {
      expect(searchShape(term)).toBe('scan');
    },
  );
});
