/**
 * Runs the chain indexers and the attestation pollers as loops (docs/indexer.md "Polling"): a
 * chain that scanned a range goes on at once (backfill), an idle or standby chain waits its poll
 * interval, a failed tick waits the interval doubled per consecutive failure (at most 60 s) and
 * scans the same range again. Each chain has its attestation poller, which asks Iris only while
 * this process holds the chain's lock, so one process polls a chain however many replicas run.
 * A reorg that replaced blocks counted final is counted (`indexer_deep_reorgs_total`) and
 * logged as an error. `stop()` ends the loops between steps.
 */
import type { Logger } from '@ctss/server-kit';
import type { Session } from '../db/statements.js';
import type { Registry } from 'prom-client';
import { pollAttestations, type AttestationOptions } from './attestation.js';
import type { TickResult } from './chain-indexer.js';
import type { IrisClient } from './iris.js';
import { createIndexerMetrics } from './metrics.js';
import type { IndexerSource } from './source.js';

/** The last known state of one chain, for `/health`. */
interface ChainStatus {
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
  /** One source per chain, of any family (source.ts). */
  readonly indexers: readonly IndexerSource[];
  /** The primary (the attestation passes write through it). */
  readonly db: Session;
  readonly iris: IrisClient;
  readonly attestation: AttestationOptions;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Pause between two attestation passes of a chain, ms (default 1000). */
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
  const { ticks, inserted, lag, attested, deepReorgs, irisRequests } = createIndexerMetrics(
    deps.registry,
  );

  const chains: ChainStatus[] = deps.indexers.map((i) => ({
    name: i.config.name,
    role: 'starting',
    head: null,
    lastTickAt: null,
    lastError: null,
  }));

  const chainLoop = async (indexer: IndexerSource, status: ChainStatus) => {
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
        const fields = {
          chain: name,
          to: result.to.toString(),
          depth: result.depth,
          deleted: result.deleted,
        };
        if (result.deep) {
          deepReorgs.inc({ chain: name });
          deps.logger.error(
            fields,
            'reorg deeper than the confirmation depth: records counted final were repaired',
          );
        } else {
          deps.logger.warn(fields, 'reorg');
        }
        continue;
      }
      await pause(indexer.config.pollIntervalMs);
    }
  };

  let irisCounted = deps.iris.requests;
  const attestationLoop = async (indexer: IndexerSource) => {
    const chain = { network: indexer.config.network, domain: indexer.config.domain };
    while (!stopped) {
      if (indexer.isWriter()) {
        try {
          const pass = await pollAttestations(deps.db, deps.iris, {
            ...deps.attestation,
            chain,
          });
          attested.inc({ result: 'attested' }, pass.attested);
          attested.inc({ result: 'error' }, pass.errors);
          irisRequests.inc(deps.iris.requests - irisCounted);
          irisCounted = deps.iris.requests;
          // A full pass leaves more due records: go on at once (the rate gate paces the requests).
          if (pass.asked >= (deps.attestation.batch ?? 20) && pass.errors === 0) continue;
        } catch (error) {
          deps.logger.warn({ chain: indexer.config.name, err: error }, 'attestation pass failed');
        }
        irisRequests.inc(deps.iris.requests - irisCounted);
        irisCounted = deps.iris.requests;
      }
      await pause(deps.attestationIntervalMs ?? 1_000);
    }
  };

  const loops = [
    ...deps.indexers.map((indexer, i) => chainLoop(indexer, chains[i]!)),
    ...deps.indexers.map((indexer) => attestationLoop(indexer)),
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
