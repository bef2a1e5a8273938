/**
 * The ratio of each measured workload to its baseline. A 5 s hello-world runs before every
 * workload and once at the end of the run, and the machine's speed drifts within a run (on these
 * hosts hello-world ranged from 2,000 to 8,900 req/s within one), so each workload's hello-world
 * figure is the mean of the one just before it and the one just after it. A workload judged
 * against another baseline (the same-bytes page) takes that baseline's req/s of the same round.
 */
import type { WorkloadRecord } from './results.js';

/**
 * Sets `helloRps` and `ratio` of every record.
 * @param records the measured workloads of every round, in the order measured
 * @param helloRps hello-world req/s in the order measured: the one at the start of the run, the
 *   one before each record, the one at the end (so `records.length + 2` values)
 * @throws RangeError when `helloRps` has another length, or a record names a baseline that was
 *   not measured before it
 */
export function applyBaselines(
  records: readonly WorkloadRecord[],
  helloRps: readonly number[],
): WorkloadRecord[] {
  if (helloRps.length !== records.length + 2)
    throw new RangeError(
      `applyBaselines needs ${records.length + 2} hello-world figures, got ${helloRps.length}`,
    );
  return records.map((r, i) => {
    const bracket = (helloRps[i + 1]! + helloRps[i + 2]!) / 2;
    if (r.baseline === undefined) return { ...r, helloRps: bracket, ratio: r.rps / bracket };
    const base = records
      .slice(0, i)
      .reverse()
      .find((b) => b.name === r.baseline);
    if (!base)
      throw new RangeError(`${r.name}: its baseline ${r.baseline} was not measured before it`);
    return { ...r, helloRps: bracket, baselineRps: base.rps, ratio: r.rps / base.rps };
  });
}
