/**
 * The feeder process's Prometheus instruments on top of server-kit's: cycles by result, the time
 * of the last write and gas source failures per domain.
 */
import { createMetrics, type Metrics } from '@ctss/server-kit';
import { Counter, Gauge } from 'prom-client';
import type { Clock } from '../clock.js';
import type { RefreshReport } from './feeder.js';

/** The feeder's metrics and the cycle callback that updates them. */
export interface FeederMetrics extends Metrics {
  /** Counts one cycle's outcome (its report, or the error that ended it) at `clock()`. */
  readonly onCycle: (outcome: RefreshReport | Error) => void;
}

/** Creates a registry (prefix `gas_feeder_`) with the feeder's instruments. */
export function createFeederMetrics(clock: Clock): FeederMetrics {
  const metrics = createMetrics({ prefix: 'gas_feeder_' });
  const cycles = new Counter({
    name: 'gas_feeder_cycles_total',
    help: 'Feeder cycles by result: wrote (held the lock and stored prices), skipped (lock held elsewhere), failed',
    labelNames: ['result'],
    registers: [metrics.registry],
  });
  const lastWrite = new Gauge({
    name: 'gas_feeder_last_write_timestamp_seconds',
    help: 'UNIX time of the last cycle that stored prices',
    registers: [metrics.registry],
  });
  const sourceFailures = new Counter({
    name: 'gas_feeder_gas_source_failures_total',
    help: 'Gas price fetches that failed, by domain',
    labelNames: ['domain'],
    registers: [metrics.registry],
  });
  return {
    ...metrics,
    onCycle(outcome) {
      if (outcome instanceof Error) return cycles.inc({ result: 'failed' });
      cycles.inc({ result: outcome.wrote ? 'wrote' : 'skipped' });
      if (outcome.wrote) lastWrite.set(clock() / 1000);
      for (const domain of outcome.gasFailed) sourceFailures.inc({ domain: String(domain) });
    },
  };
}
