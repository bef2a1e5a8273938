/**
 * Several rounds of one workload folded into the record the report judges. One 10 s measurement
 * of a workload lands within about 10 % of its ratio on either side from run to run on these hosts
 * (`quote-ed25519` 0.70x then 0.78x, `leaderboard-search` 0.37x then 0.32x, same code and host
 * class), so a target near the line passed or failed by chance. Each round runs on fresh API
 * processes, because one process can run 15-25 % slower than another for its whole life
 * (packages/bench/FINDINGS.md "Reading the figures").
 */
import type { WorkloadRecord } from './results.js';

/**
 * The record of the round with the median ratio to hello-world (of an even count, the lower of
 * the two middle ones), with every round's ratio in `roundRatios` (in the order measured), the
 * peak RSS the largest of any round, and the failures (non-2xx, socket errors, timeouts and
 * statuses) summed over the rounds, so a failure in any round still marks the workload invalid.
 * @param rounds the records of one workload, one per round, in the order measured (at least one)
 * @throws RangeError when `rounds` is empty or holds more than one workload
 */
export function medianRound(rounds: readonly WorkloadRecord[]): WorkloadRecord {
  const [first] = rounds;
  if (!first) throw new RangeError('medianRound needs at least one round');
  if (rounds.some((r) => r.name !== first.name))
    throw new RangeError(`medianRound got rounds of more than one workload (${first.name})`);
  if (rounds.length === 1) return first;
  const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  const rss = rounds.map((r) => r.peakRssMb).filter((v): v is number => v !== undefined);
  const statuses: Record<string, number> = {};
  for (const r of rounds)
    for (const [status, count] of Object.entries(r.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  const sum = (pick: (r: WorkloadRecord) => number) => rounds.reduce((a, r) => a + pick(r), 0);
  return {
    ...median,
    peakRssMb: rss.length > 0 ? Math.max(...rss) : undefined,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statuses,
    roundRatios: rounds.map((r) => r.ratio),
    ...(rounds.some((r) => r.floor)
      ? { roundFloorRatios: rounds.map((r) => r.floor?.ratio ?? 0) }
      : {}),
  };
}

/**
 * Folds records measured over several rounds into one per workload with {@link medianRound}, in
 * the order each workload was first measured.
 * @param records every round's records, in the order measured
 */
export function foldRounds(records: readonly WorkloadRecord[]): WorkloadRecord[] {
  const byName = new Map<string, WorkloadRecord[]>();
  for (const r of records) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  return [...byName.values()].map(medianRound);
}
