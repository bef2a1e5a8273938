import { describe, expect, it } from '@jest/globals';
import { runSection } from '../src/report.js';
import { mergeRun, type RunRecord, type WorkloadRecord } from '../src/results.js';
import type { Machine } from '../src/machine.js';

const QUIET: Machine = {
  cores: 2,
  cpuModel: 'AMD EPYC',
  memoryGiB: 23.5,
  node: 'v20.20.2',
  kernel: 'Linux quiet',
  loadAtStart: 0.5,
  openFilesLimit: 20_000,
};
const NOISY: Machine = {
  ...QUIET,
  kernel: 'Linux noisy',
  loadAtStart: 2.4,
  systemCallMicros: 0.75,
};

/** A workload record named `name`, in `group`, measured at `measuredAt`. */
function workload(
  name: string,
  group: WorkloadRecord['group'],
  rps: number,
  measuredAt: string,
): WorkloadRecord {
  return {
    name,
    description: name,
    service: 'monitoring',
    group,
    connections: 32,
    durationSeconds: 10,
    rps,
    ratio: rps / 15_000,
    helloRps: 15_000,
    p50: 2,
    p99: 8,
    averageMs: 2,
    peakRssMb: 180,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statuses: { '200': rps * 10 },
    measuredAt,
  };
}

const FULL_DATE = '2026-11-27T03:13:52.339Z';
const SUBSET_DATE = '2026-11-27T14:00:00.000Z';

/** The stored full run: hello-world, the first page and the closed walk. */
const full: RunRecord = {
  transactions: 1_000_000,
  users: 100_000,
  mainnetRows: 800_000,
  seedSeconds: 70,
  machine: QUIET,
  date: FULL_DATE,
  note: undefined,
  helloRps: [15_000, 16_000],
  pairedHelloSeconds: 5,
  rounds: 3,
  workloads: [
    workload('hello-world', 'baseline', 15_400, FULL_DATE),
    workload('feed-first-page', 'feed', 5_000, FULL_DATE),
    workload('feed-time-window-closed', 'feed', 3_500, FULL_DATE),
  ],
  fanout: undefined,
};

/** A later `--only` run on another host: its hello-world and a new row. */
const subset: RunRecord = {
  ...full,
  machine: NOISY,
  date: SUBSET_DATE,
  note: 'extra service environment: X=1',
  helloRps: [4_900, 7_400],
  partial: true,
  workloads: [
    workload('hello-world', 'baseline', 6_000, SUBSET_DATE),
    workload('feed-time-window-closed-gzip', 'feed', 2_000, SUBSET_DATE),
  ],
};

describe('mergeRun', () => {
  it("when a subset run follows a full one, then its rows join the table with their origin, and the header and baselines stay the full run's", () => {
    const merged = mergeRun(full, subset);
    expect(merged).toMatchObject({ date: FULL_DATE, machine: QUIET, helloRps: [15_000, 16_000] });
    expect(merged.partial).toBeUndefined();
    const byName = new Map(merged.workloads.map((w) => [w.name, w]));
    expect(byName.get('hello-world')?.rps).toBe(15_400);
    expect(byName.get('hello-world')?.origin).toBeUndefined();
    expect(byName.get('feed-first-page')?.origin).toBeUndefined();
    expect(byName.get('feed-time-window-closed-gzip')).toMatchObject({
      rps: 2_000,
      origin: {
        date: SUBSET_DATE,
        machine: NOISY,
        helloRps: [4_900, 7_400],
        note: 'extra service environment: X=1',
      },
    });
  });

  it('when a full run follows, then it replaces the header and every row it measured, origin marks included', () => {
    const later = '2026-11-28T00:00:00.000Z';
    const merged = mergeRun(mergeRun(full, subset), {
      ...full,
      date: later,
      workloads: [
        workload('hello-world', 'baseline', 14_000, later),
        workload('feed-time-window-closed-gzip', 'feed', 4_000, later),
      ],
    });
    expect(merged.date).toBe(later);
    const byName = new Map(merged.workloads.map((w) => [w.name, w]));
    expect(byName.get('feed-time-window-closed-gzip')).toMatchObject({ rps: 4_000 });
    expect(byName.get('feed-time-window-closed-gzip')?.origin).toBeUndefined();
    expect(byName.get('hello-world')?.rps).toBe(14_000);
  });

  it('when a subset run is the first of its size, then it is the record', () => {
    const merged = mergeRun(undefined, subset);
    expect(merged.date).toBe(SUBSET_DATE);
    expect(merged.workloads.every((w) => w.origin === undefined)).toBe(true);
  });
});

describe('runSection', () => {
  it('marks the rows of a subset run in both tables and says under the first where they were measured', () => {
    const lines = runSection(
      mergeRun(full, {
        ...subset,
        workloads: subset.workloads.map((w) => ({
          ...w,
          cpu: {
            apiUs: 700,
            postgresUs: 0,
            redisUs: 30,
            loadGeneratorUs: 60,
            otherUs: 1,
            machineBusy: 0.8,
            steal: 0,
          },
        })),
      }),
      undefined,
    );
    const marked = lines.filter((l) => l.startsWith('| `feed-time-window-closed-gzip` [1] |'));
    expect(marked).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('| `feed-first-page` |'))).toHaveLength(1);
    expect(lines).toContain(`- Date: ${FULL_DATE}`);
    const note = lines.find((l) => l.startsWith('[1] '));
    expect(note).toContain(SUBSET_DATE);
    expect(note).toContain('Linux noisy');
    expect(note).toContain('hello-world 4,900-7,400 req/s');
    expect(note).toContain('extra service environment: X=1');
    // The system-call gauge where the record has it, nothing where an older record lacks it.
    expect(note).toContain('0.75 us of kernel CPU per system call');
    expect(lines.find((l) => l.startsWith('- Machine: '))).not.toContain('system call');
  });
});
