/** The machine a run was measured on, for the report. */
import { readFile } from 'node:fs/promises';
import os from 'node:os';

/** Machine description. Memory in GiB. */
export interface Machine {
  readonly cores: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  /** 1-minute load average when the run started (other processes on the machine show here). */
  readonly loadAtStart: number;
  /** Soft limit of open files of this process (bounds the WebSocket clients). */
  readonly openFilesLimit: number | undefined;
}

/** Soft `Max open files` of this process from /proc/self/limits; undefined off Linux. */
async function openFilesLimit(): Promise<number | undefined> {
  try {
    const limits = await readFile('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match?.[1]) return undefined;
    return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Describes this machine now. */
export async function describeMachine(): Promise<Machine> {
  const cpus = os.cpus();
  return {
    cores: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAtStart: Math.round(os.loadavg()[0]! * 100) / 100,
    openFilesLimit: await openFilesLimit(),
  };
}
