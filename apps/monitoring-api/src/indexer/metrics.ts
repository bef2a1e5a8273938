/**
 * The indexer's Prometheus instruments (docs/indexer.md "Configuration", metrics), registered in
 * the process's registry next to server-kit's process defaults.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** Name, help text and label names of each instrument, as `/metrics` shows them. */
const INSTRUMENTS = {
  ticks: {
    name: 'indexer_ticks_total',
    help: 'Indexer steps by chain and result (scanned, idle, standby, rewound, failed)',
    labelNames: ['chain', 'result'],
  },
  inserted: {
    name: 'indexer_transfers_inserted_total',
    help: 'Transfer records inserted, by chain',
    labelNames: ['chain'],
  },
  lag: {
    name: 'indexer_head_lag_blocks',
    help: 'Blocks between the chain head and the last scanned block, by chain',
    labelNames: ['chain'],
  },
  attested: {
    name: 'indexer_attestations_total',
    help: 'Iris answers by result (attested, error)',
    labelNames: ['result'],
  },
  deepReorgs: {
    name: 'indexer_deep_reorgs_total',
    help: 'Reorgs that replaced blocks already counted final (deeper than the confirmation depth), by chain',
    labelNames: ['chain'],
  },
  irisRequests: {
    name: 'indexer_iris_requests_total',
    help: 'Requests sent to Iris by this process',
    labelNames: [],
  },
} as const;

/** The instruments the indexer's loops update (runner.ts). */
export interface IndexerMetrics {
  /** Steps by chain and result (`scanned`, `idle`, `standby`, `rewound`, `failed`). */
  readonly ticks: Counter<'chain' | 'result'>;
  /** Transfer records inserted, by chain. */
  readonly inserted: Counter<'chain'>;
  /** Blocks between the chain head and the last scanned block, by chain. */
  readonly lag: Gauge<'chain'>;
  /** Iris answers by result (`attested`, `error`). */
  readonly attested: Counter<'result'>;
  /** Reorgs that replaced blocks counted final, by chain (each one is also logged as an error). */
  readonly deepReorgs: Counter<'chain'>;
  /** Requests sent to Iris by this process. */
  readonly irisRequests: Counter;
}

/**
 * Creates the instruments in `registry`.
 *
 * @throws Error (prom-client) when `registry` already holds a metric of one of these names.
 */
export function createIndexerMetrics(registry: Registry): IndexerMetrics {
  const registers = [registry];
  return {
    ticks: new Counter({ ...INSTRUMENTS.ticks, registers }),
    inserted: new Counter({ ...INSTRUMENTS.inserted, registers }),
    lag: new Gauge({ ...INSTRUMENTS.lag, registers }),
    attested: new Counter({ ...INSTRUMENTS.attested, registers }),
    deepReorgs: new Counter({ ...INSTRUMENTS.deepReorgs, registers }),
    irisRequests: new Counter({ ...INSTRUMENTS.irisRequests, registers }),
  };
}
