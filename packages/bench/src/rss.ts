/**
 * Resident set size of a child process, read from /proc/<pid>/status: VmRSS sampled every
 * `intervalMs`, and VmHWM (the kernel's own peak) after resetting it through /proc/<pid>/clear_refs
 * at the start of a workload, so the peak belongs to that workload only. Linux only; elsewhere
 * the figures are undefined.
 */
import { readFile, writeFile } from 'node:fs/promises';

/** Reads `VmRSS` and `VmHWM` of `pid` in bytes; undefined when /proc is unavailable. */
export async function readMemory(pid: number): Promise<{ rss: number; hwm: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return match?.[1] ? Number(match[1]) * 1024 : 0;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** A running sampler; `stop` returns the peak RSS in bytes seen since `start` (undefined off Linux). */
export interface RssSampler {
  stop(): Promise<number | undefined>;
}

/** Starts sampling the RSS of `pids` (their sum is reported; one pid per API process). */
export async function sampleRss(pids: readonly number[], intervalMs = 100): Promise<RssSampler> {
  // "5" resets the peak RSS counter (VmHWM) to the current RSS (proc(5), clear_refs).
  await Promise.all(
    pids.map((pid) => writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined)),
  );
  let peak: number | undefined;
  let sampling = Promise.resolve();
  const sample = async (): Promise<void> => {
    const readings = await Promise.all(pids.map(readMemory));
    if (readings.some((r) => r === undefined)) return;
    const total = readings.reduce((sum, r) => sum + (r?.rss ?? 0), 0);
    peak = Math.max(peak ?? 0, total);
  };
  await sample();
  const timer = setInterval(() => {
    sampling = sampling.then(sample);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      const readings = await Promise.all(pids.map(readMemory));
      if (readings.every((r) => r !== undefined)) {
        const hwm = readings.reduce((sum, r) => sum + (r?.hwm ?? 0), 0);
        peak = Math.max(peak ?? 0, hwm);
      }
      return peak;
    },
  };
}
