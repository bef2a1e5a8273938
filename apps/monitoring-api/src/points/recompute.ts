/**
 * The points job's work (docs/decisions.md "D150. Swap points from transfers", "D151. Exact,
 * idempotent points"): swap points per wallet and network from the transfer records.
 *
 * - A statement trigger on `transactions` appends each inserted, updated or deleted record's
 *   (network, sender) to `points_dirty` (migration 20261203000100_points), so the reorg walk-back
 *   of the indexer (deletes and rewrites) marks its senders like new records do.
 * - One run, in one transaction under an advisory lock: take the dirty senders (or every sender
 *   for a rebuild), recompute each one's points from ALL its counted records into
 *   `wallet_swap_points` (network, sender, chain_type -> points_micro), then write the float
 *   columns of `wallet_points` for every wallet key touched: swap_points (testnet) /
 *   swap_points_mainnet = sum(points_micro) / 10^6 and total_points_multiplied* = swap points x
 *   points_multiplier. A wallet's points are therefore a function of its records and the rule
 *   only: incremental runs and a rebuild give the same rows.
 * - The rule's version is kept in `points_state` and on every row it computed
 *   (`wallet_swap_points.rule_version`, migration 20261210000100_points_rule_version); a run that
 *   finds another version in either rebuilds and says why (docs/decisions.md "D210. The points
 *   rule version on every row, and the job's health").
 */
import { DEFAULT_CHAINS } from '@ctss/domain-types';
import type { Session } from '../db/statements.js';
import { ruleVersion, type PointsRule } from './rule.js';

/** Advisory lock key of the points job ("ctsspnts"); a second run waits for the first. */
const POINTS_JOB_LOCK = 0x63747373_706e7473n;

/**
 * Why a run rebuilt: asked to (`--rebuild`), no rule stored yet (the first run), the stored rule
 * is another one, or rows computed under another rule were found (e.g. restored from a backup).
 */
type RebuildReason = 'requested' | 'first_run' | 'rule_changed' | 'rows_of_other_rule';

/** What one run did. */
export interface PointsRunResult {
  /** `rebuild` (every sender, e.g. after a rule change) or `incremental` (dirty senders). */
  mode: 'rebuild' | 'incremental';
  /** Why it rebuilt; absent for an incremental run. */
  reason?: RebuildReason;
  /** Version of the rule applied (see ruleVersion). */
  rule_version: string;
  /** The version stored before this run when it differed (rule_changed); absent otherwise. */
  previous_rule_version?: string;
  /** Senders recomputed. */
  senders: number;
  /** Wallet keys whose wallet_points row was written. */
  wallets: number;
}

/** SQL: the chain type of a record's sender, from its source CCTP domain's VM family. */
function chainTypeSql(): string {
  const cases = DEFAULT_CHAINS.filter((c) => c.vm !== 'evm')
    .map((c) => `when ${Number(c.domain)} then '${c.vm}'`)
    .join(' ');
  return `(case t.source_domain ${cases} else 'evm' end)`;
}

/** SQL: the wallet key of a sender of `chainType` (as user_wallets.address_key, src/users/address.ts). */
const ADDRESS_KEY_SQL = `(case chain_type
    when 'solana' then sender
    when 'aptos' then '0x' || lpad(lower(substr(sender, 3)), 64, '0')
    else lower(sender) end)`;

/** SQL: whether a record counts (D150): confirmed, no error, destination not failed. */
const COUNTED_SQL = `t.confirmed and not t.has_source_tx_error and not t.has_attestation_error
   and not t.has_destination_tx_error and t.destination_tx_status <> 'failed'`;

/** SQL: a record's multiplier in basis points under `rule` (values validated by the config schema). */
function multiplierSql(rule: PointsRule): string {
  if (rule.multipliers.length === 0) return '10000';
  const cases = rule.multipliers.map((m) => {
    const conds = ['true'];
    if (m.source_domain !== undefined) conds.push(`t.source_domain = ${Number(m.source_domain)}`);
    if (m.destination_domain !== undefined)
      conds.push(`t.destination_domain = ${Number(m.destination_domain)}`);
    if (m.from) conds.push(`t.created_at >= '${new Date(m.from).toISOString()}'::timestamptz`);
    if (m.to) conds.push(`t.created_at < '${new Date(m.to).toISOString()}'::timestamptz`);
    return `case when ${conds.join(' and ')} then ${Number(m.multiplier)} end`;
  });
  return `coalesce(greatest(${cases.join(', ')}), 10000)`;
}

/**
 * Runs the points job once on `db` (the primary), in one transaction: the job's statements,
 * plain SQL text written to src/queries/points.sql by test/queries.int.test.ts. The advisory lock
 * is transaction scoped (`pg_advisory_xact_lock`): COMMIT or ROLLBACK releases it.
 *
 * @param options.rebuild recompute every sender even when the rule is unchanged.
 * @returns the mode, the rule version and how many senders / wallets were recomputed.
 * @throws database errors (the transaction is rolled back; nothing is half-applied).
 */
export async function recomputePoints(
  db: Session,
  rule: PointsRule,
  options: { rebuild?: boolean } = {},
): Promise<PointsRunResult> {
  const version = ruleVersion(rule);
  return db.transaction(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock($1::bigint)', [POINTS_JOB_LOCK.toString()]);
    const state = await tx.first<{ rule_version: string }>(
      'select rule_version from points_state where id = 1',
    );
    const stored = state?.rule_version;
    // A row of another rule (a restore, a manual write) makes the incremental result wrong too.
    const foreign =
      stored === version
        ? await tx.rows('select 1 from wallet_swap_points where rule_version <> $1 limit 1', [
            version,
          ])
        : undefined;
    const reason: RebuildReason | undefined =
      options.rebuild === true
        ? 'requested'
        : stored === undefined
          ? 'first_run'
          : stored !== version
            ? 'rule_changed'
            : (foreign?.length ?? 0) > 0
              ? 'rows_of_other_rule'
              : undefined;
    const rebuild = reason !== undefined;

    if (rebuild) {
      await tx.execute('delete from points_dirty');
      await tx.execute(`create temp table points_scope on commit drop as
        select network, sender from transactions
        union select network, sender from wallet_swap_points`);
    } else {
      // Only the marks visible now are taken; marks committed later stay for the next run.
      await tx.execute(`create temp table points_scope on commit drop as
        with taken as (delete from points_dirty returning network, sender)
        select distinct network, sender from taken`);
    }
    await tx.execute('create index on points_scope (network, sender)');
    await tx.execute('analyze points_scope');
    const senders = await tx.first<{ n: number }>('select count(*)::int as n from points_scope');

    await tx.execute(`create temp table points_keys on commit drop as
      select distinct w.chain_type, w.address_key
        from wallet_swap_points w join points_scope s using (network, sender)`);
    await tx.execute(`delete from wallet_swap_points w using points_scope s
      where w.network = s.network and w.sender = s.sender`);
    await tx.execute(
      `insert into wallet_swap_points (network, sender, chain_type, address_key, points_micro, transfer_count, rule_version)
      select network, sender, chain_type, ${ADDRESS_KEY_SQL}, points_micro, transfer_count, $1
        from (
          select t.network, t.sender, ${chainTypeSql()} as chain_type,
                 sum(div(t.deposit_amount::numeric * ${Number(rule.perUsdMicro)} * ${multiplierSql(rule)}, 10000000000)) as points_micro,
                 count(*) as transfer_count
            from transactions t join points_scope s on s.network = t.network and s.sender = t.sender
           where ${COUNTED_SQL}
           group by 1, 2, 3
        ) computed`,
      [version],
    );
    await tx.execute(`insert into points_keys
      select distinct w.chain_type, w.address_key
        from wallet_swap_points w join points_scope s using (network, sender)`);
    const written = await tx.execute(`
      insert into wallet_points as p (chain_type, address_key, swap_points, swap_points_mainnet,
                                      total_points_multiplied, total_points_multiplied_mainnet)
      select k.chain_type, k.address_key,
             coalesce(sum(w.points_micro) filter (where w.network = 'testnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'mainnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'testnet'), 0) / 1000000,
             coalesce(sum(w.points_micro) filter (where w.network = 'mainnet'), 0) / 1000000
        from (select distinct chain_type, address_key from points_keys) k
        left join wallet_swap_points w on w.chain_type = k.chain_type and w.address_key = k.address_key
       group by k.chain_type, k.address_key
       order by k.chain_type, k.address_key
      on conflict (chain_type, address_key) do update
         set swap_points = excluded.swap_points,
             swap_points_mainnet = excluded.swap_points_mainnet,
             total_points_multiplied = excluded.swap_points * p.points_multiplier,
             total_points_multiplied_mainnet = excluded.swap_points_mainnet * p.points_multiplier,
             updated_at = now()`);
    await tx.execute(
      `insert into points_state (id, rule_version, per_usd_micro, multipliers, rebuilt_at, ran_at)
       values (1, $1, $2, $3::jsonb, now(), now())
       on conflict (id) do update set rule_version = excluded.rule_version,
         per_usd_micro = excluded.per_usd_micro, multipliers = excluded.multipliers,
         rebuilt_at = case when $4 then now() else points_state.rebuilt_at end, ran_at = now()`,
      [version, rule.perUsdMicro, JSON.stringify(rule.multipliers), rebuild],
    );
    return {
      mode: rebuild ? 'rebuild' : 'incremental',
      ...(reason === undefined ? {} : { reason }),
      rule_version: version,
      ...(stored !== undefined && stored !== version ? { previous_rule_version: stored } : {}),
      senders: senders?.n ?? 0,
      wallets: written.rowCount,
    };
  });
}
