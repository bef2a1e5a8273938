/** The machine a run was measured on, for the report. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { median } from './median.js';

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
  /**
   * Kernel CPU of one system call, microseconds ({@link systemCallMicros}); absent in records
   * made before it was measured.
   */
  readonly systemCallMicros?: number;
}

/** One-byte writes per sample of {@link systemCallMicros}. */
const SYSCALL_SAMPLE_WRITES = 200_000;

/**
 * What one system call costs this host's kernel: the system CPU time (`process.cpuUsage`,
 * getrusage) of 200,000 one-byte `write`s to `/dev/null`, per write, in microseconds; the median
 * of 5 samples. The same gauge as `dd if=/dev/zero of=/dev/null bs=1` (which makes two calls a
 * byte). Every request an API serves makes a few system calls (`read`, `writev`, `epoll_wait`,
 * the Redis round trip of the rate limit), as hello-world does, so a host where they are dear
 * spends more of each request in the kernel and less in the JavaScript the ratios compare:
 * compare this figure before comparing two hosts' ratios (FINDINGS.md "Reading the figures").
 * Undefined where `/dev/null` cannot be opened.
 */
function systemCallMicros(): number | undefined {
  let fd: number;
  try {
    fd = openSync('/dev/null', 'w');
  } catch {
    return undefined;
  }
  try {
    const byte = Buffer.alloc(1);
    const samples: number[] = [];
    for (let sample = 0; sample < 5; sample += 1) {
      const before = process.cpuUsage();
      for (let i = 0; i < SYSCALL_SAMPLE_WRITES; i += 1) writeSync(fd, byte);
      samples.push(process.cpuUsage(before).system / SYSCALL_SAMPLE_WRITES);
    }
    return Math.round(median(samples) * 1000) / 1000;
  } finally {
    closeSync(fd);
  }
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

/** The 1-minute load average now, to two decimals. */
export function loadAverage(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

/** Describes this machine now, with its {@link systemCallMicros} (about half a second to measure). */
export async function describeMachine(): Promise<Machine> {
  const cpus = os.cpus();
  const gauge = systemCallMicros();
  return {
    cores: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAtStart: loadAverage(),
    openFilesLimit: await openFilesLimit(),
    ...(gauge === undefined ? {} : { systemCallMicros: gauge }),
  };
}
