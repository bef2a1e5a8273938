import { describe, expect, it } from '@jest/globals';
import { LeaderboardQuery, SEARCH_MAX_LENGTH } from '../../src/users/schemas.js';

describe('leaderboard search truncation', () => {
  it('keeps the first 100 units and never leaves half of a surrogate pair at the cut', () => {
    const plain = 'a'.repeat(150);
    expect(LeaderboardQuery.parse({ search: plain }).search).toBe('a'.repeat(SEARCH_MAX_LENGTH));
    const straddling = `${'a'.repeat(SEARCH_MAX_LENGTH - 1)}😀tail`;
    expect(LeaderboardQuery.parse({ search: straddling }).search).toBe(
      'a'.repeat(SEARCH_MAX_LENGTH - 1),
    );
    const fitting = `${'a'.repeat(SEARCH_MAX_LENGTH - 2)}😀tail`;
    expect(LeaderboardQuery.parse({ search: fitting }).search).toBe(
      `${'a'.repeat(SEARCH_MAX_LENGTH - 2)}😀`,
    );
  });
});
