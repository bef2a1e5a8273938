import { describe, expect, it } from '@jest/globals';
import { applyBaselines } from '../src/baselines.js';
import type { WorkloadRecord } from '../src/results.js';

/** A measured record of `name` at `rps`, judged against `baseline` when given. */
function measured(name: string, rps: number, baseline?: string): WorkloadRecord {
  return {
    name,
    description: name,
    service: 'monitoring',
    group: baseline ? 'feed' : 'baseline',
    connections: 32,
    durationSeconds: 10,
    rps,
    ratio: 0,
    helloRps: 0,
    baseline,
    p50: 10,
    p99: 20,
    averageMs: 10,
    peakRssMb: 250,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statuses: { '200': rps * 10 },
    measuredAt: '2026-11-25T12:00:00.000Z',
  };
}

describe('applyBaselines', () => {
  it('takes each ratio against the mean of the hello-worlds just before and just after it', () => {
    const out = applyBaselines(
      [measured('a', 6_000), measured('b', 3_000)],
      [15_000, 10_000, 14_000, 16_000],
    );
    expect(out.map((r) => [r.helloRps, r.ratio])).toEqual([
      [12_000, 0.5],
      [15_000, 0.2],
    ]);
  });

  it("takes a workload's ratio against its baseline measured just before, in its own round", () => {
    const out = applyBaselines(
      [
        measured('same-bytes', 4_000),
        measured('walk', 1_000, 'same-bytes'),
        measured('same-bytes', 5_000),
        measured('walk', 2_000, 'same-bytes'),
      ],
      [10_000, 10_000, 12_000, 10_000, 12_000, 10_000],
    );
    expect(out[1]).toMatchObject({ ratio: 0.25, baselineRps: 4_000, helloRps: 11_000 });
    expect(out[3]).toMatchObject({ ratio: 0.4, baselineRps: 5_000, helloRps: 11_000 });
    // The baseline itself is read against hello-world.
    expect(out[0]!.ratio).toBeCloseTo(4_000 / 11_000);
  });

  it('refuses a baseline not measured before the workload and a hello-world list of another length', () => {
    expect(() => applyBaselines([measured('walk', 1_000, 'same-bytes')], [1, 2, 3])).toThrow(
      /same-bytes was not measured/,
    );
    expect(() => applyBaselines([measured('a', 1)], [1, 2])).toThrow(RangeError);
  });
});
