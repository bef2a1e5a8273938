/**
 * Property: for any search term (ASCII, LIKE metacharacters included), the leaderboard returns
 * exactly the users whose username contains the first 100 characters of the term,
 * case-insensitively: the same answer as a plain JavaScript filter over the usernames, for terms
 * served by the trigram index and for those too short for it (users/repository.ts SearchShape).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { fetchLeaderboard } from '../../src/users/repository.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { insertUser } from './builders.js';

const ALPHABET = ['a', 'B', '_', '%', '\\', '.', "'", '-', 'x'];
const term = fc
  .array(fc.constantFrom(...ALPHABET), { maxLength: 4 })
  .map((chars) => chars.join(''));

describe('leaderboard search, property', () => {
  let db: TestDatabase;
  const usernames: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const stems = fc.sample(
      fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 }),
      { numRuns: 60, seed: 42 },
    );
    const seen = new Set<string>();
    for (const stem of stems) {
      const username = `${stem.join('')}.ctss`;
      if (seen.has(username.toLowerCase())) continue;
      seen.add(username.toLowerCase());
      usernames.push(username);
      await insertUser(db.knex, { username, ref_code: `R${usernames.length}` });
    }
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when searching any term, then the matches equal a case-insensitive substring filter', async () => {
    await fc.assert(
      fc.asyncProperty(term, async (search) => {
        const { entries, totalCount } = await fetchLeaderboard(db.database, {
          network: 'mainnet',
          limit: 100,
          offset: 0,
          search,
        });
        const expected = usernames
          .filter((u) => u.toLowerCase().includes(search.toLowerCase()))
          .sort();
        expect(entries.map((e) => e.username).sort()).toEqual(expected);
        expect(totalCount).toBe(expected.length);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
