import { describe, expect, it } from '@jest/globals';
import type { WorkloadRecord } from '../src/results.js';
import { foldRounds, medianRound } from '../src/rounds.js';

/** A measured record of `name` with the figures that differ between rounds. */
function round(
  name: string,
  ratio: number,
  extra: Partial<Pick<WorkloadRecord, 'peakRssMb' | 'non2xx' | 'errors' | 'statuses'>> = {},
): WorkloadRecord {
  return {
    name,
    description: name,
    service: 'gas',
    group: 'quote',
    connections: 100,
    durationSeconds: 10,
    rps: ratio * 16_000,
    ratio,
    helloRps: 16_000,
    p50: 7,
    p99: Math.round(20 / ratio),
    averageMs: 7,
    peakRssMb: 230,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statuses: { '200': Math.round(ratio * 160_000) },
    measuredAt: '2026-11-24T23:00:00.000Z',
    ...extra,
  };
}

describe('medianRound', () => {
  it('keeps the figures of the round with the median ratio and lists every ratio in order', () => {
    const folded = medianRound([round('q', 0.78), round('q', 0.7), round('q', 0.8)]);
    expect(folded.ratio).toBe(0.78);
    expect(folded.rps).toBe(0.78 * 16_000);
    expect(folded.p99).toBe(Math.round(20 / 0.78));
    expect(folded.roundRatios).toEqual([0.78, 0.7, 0.8]);
  });

  it('takes the lower middle round of an even count', () => {
    expect(medianRound([round('q', 0.8), round('q', 0.7)]).ratio).toBe(0.7);
  });

  it('reports the largest RSS and the failures of every round', () => {
    const folded = medianRound([
      round('q', 0.7, { peakRssMb: 240 }),
      round('q', 0.75, { peakRssMb: 310, non2xx: 3, statuses: { '200': 10, '500': 3 } }),
      round('q', 0.8, { peakRssMb: undefined, errors: 2 }),
    ]);
    expect(folded.ratio).toBe(0.75);
    expect(folded.peakRssMb).toBe(310);
    expect(folded.non2xx).toBe(3);
    expect(folded.errors).toBe(2);
    expect(folded.statuses).toEqual({ '200': 10 + 112_000 + 128_000, '500': 3 });
  });

  it('returns a single round unchanged', () => {
    const only = round('q', 0.72);
    expect(medianRound([only])).toBe(only);
  });

  it('refuses no rounds and rounds of different workloads', () => {
    expect(() => medianRound([])).toThrow(RangeError);
    expect(() => medianRound([round('a', 0.7), round('b', 0.7)])).toThrow(/more than one/);
  });
});

describe('foldRounds', () => {
  it('gives one record per workload, in the order first measured', () => {
    const folded = foldRounds([
      round('a', 0.7),
      round('b', 0.3),
      round('a', 0.8),
      round('b', 0.4),
      round('a', 0.75),
      round('b', 0.35),
    ]);
    expect(folded.map((r) => [r.name, r.ratio])).toEqual([
      ['a', 0.75],
      ['b', 0.35],
    ]);
  });
});
