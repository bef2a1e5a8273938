/**
 * CPU time spent per request by each party of a workload, from /proc (Linux): the API process,
 * every PostgreSQL and Redis server process (all backends, so other users of those servers count
 * too; `BENCH_POSTGRES_PID` / `BENCH_REDIS_PID` narrow them to one server), this process (the load
 * generator), and the whole machine. Clock ticks are 1/100 s.
 */
import { readdir, readFile } from 'node:fs/promises';

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, proc(5)) `pid` has used so far; 0 when it is gone or unreadable. */
async function processSeconds(pid: number | string): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The parent pid of `pid` (proc(5) stat field 4), or undefined when unreadable. */
async function parentOf(pid: string): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
}

/**
 * Processes whose command name matches `pattern`; with `server` (a server's main pid), only that
 * process and its children, so other servers of the same program on the machine do not count.
 */
async function pidsNamed(pattern: RegExp, server?: string): Promise<string[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids: string[] = [];
  for (const entry of entries.filter((e) => /^\d+$/.test(e))) {
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (!pattern.test(comm.trim())) continue;
    if (server === undefined || entry === server || (await parentOf(entry)) === server)
      pids.push(entry);
  }
  return pids;
}

/**
 * Seconds of the whole machine since boot (/proc/stat, first line): busy (user, nice, system,
 * irq, softirq, steal), all (busy plus idle and iowait), and steal (time the hypervisor ran
 * something else while this VM had work: proc(5)).
 */
async function machineSeconds(): Promise<{ busy: number; all: number; steal: number }> {
  try {
    const line = (await readFile('/proc/stat', 'utf8'))
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
      line;
    return {
      busy: (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND,
      all: (user + nice + system + idle + iowait + irq + softirq + steal) / TICKS_PER_SECOND,
      steal: steal / TICKS_PER_SECOND,
    };
  } catch {
    return { busy: 0, all: 0, steal: 0 };
  }
}

/** CPU microseconds per request, and the machine's busy share during the workload (0-1). */
export interface CpuPerRequest {
  readonly apiUs: number;
  readonly postgresUs: number;
  readonly redisUs: number;
  readonly loadGeneratorUs: number;
  /** Everything else that ran on the machine meanwhile (other processes, interrupts; not steal). */
  readonly otherUs: number;
  readonly machineBusy: number;
  /**
   * Share of the machine's time (0-1) the hypervisor gave to other guests meanwhile (steal);
   * counted in `machineBusy`. Absent in results recorded before it was measured.
   */
  readonly steal?: number;
}

/** A running CPU account; `stop(requests)` divides the CPU used since start by `requests`. */
export interface CpuAccount {
  stop(requests: number): Promise<CpuPerRequest | undefined>;
}

/**
 * The PostgreSQL and Redis servers counted: every process of those programs, or with
 * `BENCH_POSTGRES_PID` (the postmaster's pid) / `BENCH_REDIS_PID` only that server's, on a
 * machine where other servers of them run (e.g. a PostgreSQL of the benchmark's own beside a
 * shared one).
 */
const servers = {
  postgres: /^\d+$/.test(process.env.BENCH_POSTGRES_PID ?? '')
    ? process.env.BENCH_POSTGRES_PID
    : undefined,
  redis: /^\d+$/.test(process.env.BENCH_REDIS_PID ?? '') ? process.env.BENCH_REDIS_PID : undefined,
};

/** Starts accounting CPU for the API process `apiPid`. */
export async function accountCpu(apiPid: number): Promise<CpuAccount> {
  // Per process, so backends that start during the run count from zero and ones that exit are
  // dropped (their last ticks are lost, never negative).
  const group = async (pattern: RegExp, server?: string) => {
    const pids = await pidsNamed(pattern, server);
    return new Map(
      await Promise.all(pids.map(async (pid) => [pid, await processSeconds(pid)] as const)),
    );
  };
  const delta = (before: Map<string, number>, after: Map<string, number>) => {
    let total = 0;
    for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
    return total;
  };
  const snapshot = async () => ({
    api: await processSeconds(apiPid),
    postgres: await group(/^postgres/, servers.postgres),
    redis: await group(/^redis-server/, servers.redis),
    self: await processSeconds(process.pid),
    machine: await machineSeconds(),
  });
  const before = await snapshot();
  return {
    async stop(requests) {
      const after = await snapshot();
      if (requests <= 0 || after.machine.all === before.machine.all) return undefined;
      const us = (seconds: number) => Math.round((seconds * 1e6) / requests);
      const api = after.api - before.api;
      const pg = delta(before.postgres, after.postgres);
      const rd = delta(before.redis, after.redis);
      const self = after.self - before.self;
      const busy = after.machine.busy - before.machine.busy;
      const steal = after.machine.steal - before.machine.steal;
      const all = after.machine.all - before.machine.all;
      return {
        apiUs: us(api),
        postgresUs: us(pg),
        redisUs: us(rd),
        loadGeneratorUs: us(self),
        otherUs: us(Math.max(0, busy - steal - api - pg - rd - self)),
        machineBusy: Math.round((busy / all) * 100) / 100,
        steal: Math.round((steal / all) * 100) / 100,
      };
    },
  };
}
