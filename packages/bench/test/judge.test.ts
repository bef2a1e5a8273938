import { describe, expect, it } from '@jest/globals';
import { judge, unexpectedResponses } from '../src/report.js';
import type { WorkloadRecord } from '../src/results.js';

/** A record of the 304 poll (or, without `expectStatus`, of a plain feed read). */
function poll(
  statuses: Record<string, number>,
  extra: Partial<WorkloadRecord> = {},
): WorkloadRecord {
  const non2xx = Object.entries(statuses)
    .filter(([s]) => !s.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    name: 'feed-first-page-304',
    description: 'poll',
    service: 'monitoring',
    group: 'revalidation',
    connections: 32,
    durationSeconds: 10,
    rps: 12_000,
    ratio: 0.8,
    helloRps: 15_000,
    p50: 2,
    p99: 8,
    averageMs: 2,
    peakRssMb: 180,
    non2xx,
    errors: 0,
    timeouts: 0,
    statuses,
    expectStatus: 304,
    measuredAt: '2026-11-25T12:00:00.000Z',
    ...extra,
  };
}

describe('unexpectedResponses', () => {
  it('counts every status but the expected one when a workload expects one', () => {
    expect(unexpectedResponses(poll({ '304': 100 }))).toBe(0);
    expect(unexpectedResponses(poll({ '304': 90, '200': 7, '503': 3 }))).toBe(10);
  });

  it('counts the non-2xx answers otherwise, a 304 among them', () => {
    expect(
      unexpectedResponses(poll({ '200': 90, '304': 10 }, { expectStatus: undefined, non2xx: 10 })),
    ).toBe(10);
    expect(unexpectedResponses(poll({ '200': 100 }, { expectStatus: undefined }))).toBe(0);
  });
});

describe('judge', () => {
  it('passes a poll answered only with 304 at or above 0.7x of hello-world', () => {
    expect(judge(poll({ '304': 120_000 }))).toEqual({ pass: true, misses: [] });
  });

  it('fails a poll answered with 200 (no ETag, or a validator that never matches)', () => {
    const v = judge(poll({ '200': 120_000 }));
    expect(v.pass).toBe(false);
    expect(v.misses[0]).toMatch(/^invalid: 120000 not 304/);
  });

  it('fails a feed read that got a 304 it did not ask for', () => {
    const v = judge(
      poll({ '200': 99, '304': 1 }, { expectStatus: undefined, group: 'feed', ratio: 0.5 }),
    );
    expect(v.misses).toEqual([expect.stringMatching(/^invalid: 1 non-2xx/)]);
  });

  it('fails a poll under 0.7x', () => {
    expect(judge(poll({ '304': 10 }, { ratio: 0.69 })).misses).toEqual(['ratio 0.69 < 0.7']);
  });

  it('fails the monitoring API at 200 MB of RSS or more', () => {
    expect(judge(poll({ '304': 10 }, { peakRssMb: 200 })).misses).toEqual(['RSS 200 MB >= 200']);
  });

  it('judges the uncached window page against its database floor, with p99 under 40 ms', () => {
    const page = (floorRatio: number | undefined, p99: number) =>
      judge(
        poll(
          { '200': 100 },
          {
            name: 'feed-time-window',
            group: 'feed',
            expectStatus: undefined,
            // Far under the feed group's 0.35x of the same bytes: not this row's target.
            ratio: 0.2,
            p99,
            floor:
              floorRatio === undefined
                ? undefined
                : { rps: 1000, ratio: floorRatio, p50: 5, p99: 20, cpu: undefined },
          },
        ),
      );
    expect(page(0.6, 39)).toEqual({ pass: true, misses: [] });
    expect(page(0.59, 40).misses).toEqual(['0.59x of the database floor < 0.6', 'p99 40 ms >= 40']);
    expect(page(undefined, 10).misses).toEqual(['no database floor measured']);
    // While the floor is still to be measured, only the rest is judged.
    const pending = poll(
      { '200': 100 },
      { name: 'feed-time-window', group: 'feed', expectStatus: undefined, ratio: 0.2, p99: 41 },
    );
    expect(judge(pending, { floorPending: true }).misses).toEqual(['p99 41 ms >= 40']);
  });

  it('judges the closed-window walk at 0.5x of the same bytes', () => {
    const walk = (ratio: number) =>
      judge(
        poll(
          { '200': 100 },
          { name: 'feed-time-window-closed', group: 'feed', expectStatus: undefined, ratio },
        ),
      ).misses;
    expect(walk(0.5)).toEqual([]);
    expect(walk(0.49)).toEqual(['ratio 0.49 < 0.5']);
  });
});
