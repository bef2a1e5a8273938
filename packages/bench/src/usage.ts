/**
 * One load run together with what it cost the process serving it: CPU time per request (from
 * /proc, counted from the end of the warm-up, cpu.ts) and peak resident set size (rss.ts). The
 * suite measures every HTTP workload with it, and the tools their servers.
 */
import { accountCpu, type CpuAccount, type CpuPerRequest } from './cpu.js';
import { runLoad, type LoadResult, type RequestPlan } from './load.js';
import { sampleRss } from './rss.js';
import type { RunningService } from './services.js';

/** Bytes as whole MiB, undefined kept. */
export const toMb = (bytes: number | undefined): number | undefined =>
  bytes === undefined ? undefined : Math.round(bytes / 2 ** 20);

/** The figures of {@link loadWithUsage}. */
export interface LoadUsage {
  readonly r: LoadResult;
  /** CPU per request of the service and the machine's other processes; undefined off Linux. */
  readonly cpu: CpuPerRequest | undefined;
  /** Peak RSS of the service over the run, warm-up included, MiB; undefined where not sampled. */
  readonly peakRssMb: number | undefined;
}

/**
 * One load run of `plan` on `service` over `connections` connections for `durationSeconds` seconds
 * after `warmupSeconds` of warm-up, with the service's CPU time per request and its peak RSS.
 */
export async function loadWithUsage(
  service: RunningService,
  plan: RequestPlan,
  connections: number,
  durationSeconds: number,
  warmupSeconds: number,
): Promise<LoadUsage> {
  const rss = await sampleRss([service.child.pid]);
  let account: CpuAccount | undefined;
  const r = await runLoad({
    baseUrl: service.baseUrl,
    plan,
    connections,
    durationSeconds,
    warmupSeconds,
    beforeMeasure: async () => {
      account = await accountCpu(service.child.pid);
    },
  });
  const cpu = await account?.stop(r.total);
  const peakRssMb = toMb(await rss.stop());
  return { r, cpu, peakRssMb };
}
