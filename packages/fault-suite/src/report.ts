/**
 * Figures and assertions: every scenario records its measured figures and checks; the table is
 * printed at the end and any failed check makes the process exit non-zero. A failed check names
 * its scenario and the measured figure.
 */
import type { Sample } from './http.js';
import { quantile } from './load.js';
import type { Child } from './processes.js';

/** One row of the figures table. */
interface Figure {
  readonly scenario: string;
  readonly what: string;
  readonly value: string;
}

/** One assertion's outcome. */
interface Check {
  readonly scenario: string;
  readonly what: string;
  readonly measured: string;
  readonly pass: boolean;
}

const figures: Figure[] = [];
const checks: Check[] = [];

/** Records a figure (printed in the table). */
export function figure(scenario: string, what: string, value: string | number): void {
  figures.push({ scenario, what, value: typeof value === 'number' ? fmt(value) : value });
  process.stdout.write(
    `  ${scenario} | ${what}: ${typeof value === 'number' ? fmt(value) : value}\n`,
  );
}

/** Records an assertion; `measured` is what was seen, `pass` whether it met the limit. */
export function check(
  scenario: string,
  what: string,
  measured: string | number,
  pass: boolean,
): void {
  const m = typeof measured === 'number' ? fmt(measured) : measured;
  checks.push({ scenario, what, measured: m, pass });
  process.stdout.write(`  ${pass ? 'PASS' : 'FAIL'} ${scenario}: ${what} (measured ${m})\n`);
}

/**
 * Records the check that no service restarted during a scenario: each of `services` is still
 * running with the PID it had at the start (`pids`, in the same order).
 */
export function checkSamePids(
  scenario: string,
  services: readonly Child[],
  pids: readonly number[],
): void {
  const same = services.every((c, i) => c.running() && c.pid === pids[i]);
  check(
    scenario,
    'no process restarted (same PIDs)',
    services.map((c) => `${c.name}:${c.pid}${c.running() ? '' : ' exited'}`).join(' '),
    same,
  );
}

/** Numbers with at most one decimal; NaN as "none". */
export function fmt(n: number): string {
  if (Number.isNaN(n)) return 'none';
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** count, ok count and ratio, p50 and p99 latency (ms) of `samples`, as figures. */
export function summarize(
  scenario: string,
  label: string,
  samples: readonly Sample[],
  good: (s: Sample) => boolean,
): {
  count: number;
  good: number;
  ratio: number;
  p50: number;
  p99: number;
} {
  const lat = samples.map((s) => s.latencyMs);
  const g = samples.filter(good).length;
  const r = {
    count: samples.length,
    good: g,
    ratio: samples.length ? g / samples.length : Number.NaN,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
  };
  figure(
    scenario,
    label,
    `${r.count} requests, ${r.good} as expected (${fmt(r.ratio * 100)} %), p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`,
  );
  return r;
}

/** Outcome counts of `samples`, e.g. "200 x41, 503 DEPENDENCY_UNAVAILABLE x12, ECONNRESET x1". */
export function outcomes(samples: readonly Sample[]): string {
  const counts = new Map<string, number>();
  for (const s of samples) {
    const key = s.status === 0 ? (s.error ?? 'error') : `${s.status}${s.code ? ` ${s.code}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} x${n}`).join(', ') || 'none';
}

/** Prints the figures and checks tables; returns the number of failed checks. */
export function printReport(): number {
  const out: string[] = ['', 'FIGURES', ''];
  const w1 = Math.max(...figures.map((f) => f.scenario.length), 8);
  const w2 = Math.max(...figures.map((f) => f.what.length), 4);
  for (const f of figures) out.push(`${f.scenario.padEnd(w1)}  ${f.what.padEnd(w2)}  ${f.value}`);
  out.push('', 'CHECKS', '');
  const c1 = Math.max(...checks.map((c) => c.scenario.length), 8);
  const c2 = Math.max(...checks.map((c) => c.what.length), 4);
  for (const c of checks)
    out.push(
      `${c.pass ? 'PASS' : 'FAIL'}  ${c.scenario.padEnd(c1)}  ${c.what.padEnd(c2)}  ${c.measured}`,
    );
  const failed = checks.filter((c) => !c.pass).length;
  out.push(
    '',
    `fault suite: ${checks.length - failed} of ${checks.length} checks passed${failed ? `, ${failed} FAILED` : ''}`,
    '',
  );
  process.stdout.write(out.join('\n'));
  return failed;
}
