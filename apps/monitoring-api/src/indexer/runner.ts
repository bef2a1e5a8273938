/**
 * Runs the chain indexers and the attestation poller as loops (docs/indexer.md "Process"): a
 * chain that scanned a range goes on at once (backfill), an idle or standby chain waits its poll
 * interval, a failed tick waits the interval doubled per consecutive failure (at most 60 s) and
 * scans the same range again. `stop()` ends the loops between steps.
 */
import type { Logger } from '@ctss/server-kit';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { pollAttestations, type AttestationOptions } from './attestation.js';
import type { ChainIndexer, TickResult } from './chain-indexer.js';
import type { IrisClient } from './iris.js';
import { createIndexerMetrics } from './metrics.js';

/** The last known state of one chain, for `/health`. */
export interface ChainStatus {
  readonly name: string;
  role: 'starting' | 'writer' | 'standby';
  head: string | null;
  lastTickAt: string | null;
  lastError: string | null;
}

/** The running loops. */
export interface IndexerRunner {
  readonly chains: readonly ChainStatus[];
  /** Resolves when every loop has ended. */
  stop(): Promise<void>;
}

/** What {@link startIndexerRunner} needs. */
export interface RunnerDeps {
  readonly indexers: readonly ChainIndexer[];
  readonly knex: Knex;
  readonly iris: IrisClient;
  readonly attestation: AttestationOptions;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Pause between attestation passes, ms. */
  readonly attestationIntervalMs?: number;
}

/** Starts one loop per chain and the attestation loop. */
export function startIndexerRunner(deps: RunnerDeps): IndexerRunner {
  let stopped = false;
  const wakers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  const { ticks, inserted, lag, attested } = createIndexerMetrics(deps.registry);

  const chains: ChainStatus[] = deps.indexers.map((i) => ({
    name: i.config.name,
    role: 'starting',
    head: null,
    lastTickAt: null,
    lastError: null,
  }));

  const chainLoop = async (indexer: ChainIndexer, status: ChainStatus) => {
    const name = indexer.config.name;
    let failures = 0;
    while (!stopped) {
      let result: TickResult;
      try {
        result = await indexer.tick();
      } catch (error) {
        failures++;
        ticks.inc({ chain: name, result: 'failed' });
        status.lastError = (error as Error).message.split('\n')[0] ?? 'error';
        deps.logger.warn({ chain: name, err: error, failures }, 'indexer tick failed');
        await pause(Math.min(indexer.config.pollIntervalMs * 2 ** failures, 60_000));
        continue;
      }
      failures = 0;
      status.lastError = null;
      status.lastTickAt = new Date().toISOString();
      status.role = result.kind === 'standby' ? 'standby' : 'writer';
      ticks.inc({ chain: name, result: result.kind });
      if (result.kind === 'scanned') {
        inserted.inc({ chain: name }, result.inserted);
        lag.set({ chain: name }, Number(result.head - result.to));
        status.head = result.head.toString();
        continue;
      }
      if (result.kind === 'idle') {
        lag.set({ chain: name }, 0);
        status.head = result.head.toString();
      }
      if (result.kind === 'rewound') {
        deps.logger.warn(
          { chain: name, to: result.to.toString(), deleted: result.deleted },
          'reorg',
        );
        continue;
      }
      await pause(indexer.config.pollIntervalMs);
    }
  };

  const attestationLoop = async () => {
    while (!stopped) {
      try {
        const pass = await pollAttestations(deps.knex, deps.iris, deps.attestation);
        attested.inc({ result: 'attested' }, pass.attested);
        attested.inc({ result: 'error' }, pass.errors);
      } catch (error) {
        deps.logger.warn({ err: error }, 'attestation pass failed');
      }
      await pause(deps.attestationIntervalMs ?? 2_000);
    }
  };

  const loops = [
    ...deps.indexers.map((indexer, i) => chainLoop(indexer, chains[i]!)),
    ...(deps.indexers.length > 0 ? [attestationLoop()] : []),
  ];
  return {
    chains,
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}
