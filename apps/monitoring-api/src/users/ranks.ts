/**
 * The rank job's work: stored leaderboard ranks per network (docs/api.md "Leaderboard";
 * docs/decisions.md "D34. Points and ranks"). Every user gets a rank 1..N on each network by domain_total_multiplied_points
 * descending, ties broken by user id ascending (older account first), so the order is total and
 * repeatable. Users created after a run stay unranked (null) until the next run.
 */
import type { LeaderboardNetwork } from '@ctss/domain-types';
import type { Session } from '../db/statements.js';
import { ownTotalsSql, rankColumn } from './points-sql.js';

/** Networks with stored ranks. */
const RANKED_NETWORKS: readonly LeaderboardNetwork[] = ['mainnet', 'devnet'];

/** Advisory lock key, so two rank jobs never interleave (the second waits). */
const RANK_JOB_LOCK = 0x63747373_72616e6bn; // "ctssrank"

/** Rows changed per network by {@link recomputeRanks}. */
export type RankUpdateCounts = Record<LeaderboardNetwork, number>;

/**
 * Recomputes the stored ranks of both networks in ONE transaction on `db` (use the primary),
 * so readers see either the old or the new ranking, never a mix. Only rows whose rank changes are
 * written. The advisory lock is transaction scoped (`pg_advisory_xact_lock`).
 *
 * @returns how many users' ranks changed per network.
 * @throws the database errors of the lock or the updates (the transaction is rolled back: the
 *         stored ranks stay as they were), e.g. a statement timeout of the handle.
 */
export async function recomputeRanks(db: Session): Promise<RankUpdateCounts> {
  return db.transaction(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock($1::bigint)', [RANK_JOB_LOCK.toString()]);
    const counts: RankUpdateCounts = { mainnet: 0, devnet: 0 };
    for (const network of RANKED_NETWORKS) {
      const column = rankColumn(network);
      const result = await tx.execute(`
        update users as target
           set ${column} = ranked.rank
          from (
            select id, row_number() over (order by domain_total_multiplied_points desc, id asc)::int as rank
              from (${ownTotalsSql(network)}) totals
          ) ranked
         where target.id = ranked.id
           and target.${column} is distinct from ranked.rank`);
      counts[network] = result.rowCount;
    }
    return counts;
  });
}
