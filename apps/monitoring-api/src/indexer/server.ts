/**
 * Wires the transfer indexer process (docs/indexer.md): one source per chain of INDEXER_CHAINS
 * (ChainIndexer for EVM chains, SolanaSource for Solana) writing into DATABASE_URL (one writer per chain through an advisory lock), the
 * Iris attestation poll, and `GET /health`, `GET /ready` and `GET /metrics` on PORT. Used by
 * src/bin/indexer.ts through server-kit `runProcess`; closing stops the loops between steps,
 * releases the locks and closes the pool.
 */
import {
  createMetrics,
  startProbeServer,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { createWriterDatabase, WRITER_STATEMENT_TIMEOUTS_MS } from '../db/connect.js';
import { ChainIndexer } from './chain-indexer.js';
import type { IndexerConfig } from './config.js';
import { IrisClient } from './iris.js';
import { PgRateGate } from './iris-budget.js';
import { ChainLocks } from './lock.js';
import { createChainClient } from './rpc.js';
import { startIndexerRunner } from './runner.js';
// Sui and Aptos chains (docs/indexer.md "Sui and Aptos").
import { AptosReader } from './aptos/reader.js';
import { SuiGraphqlReader } from './sui/graphql.js';
import { MoveChainIndexer } from './sui/move-source.js';
import { SolanaRpc } from './solana/rpc.js';
import { SolanaSource } from './solana/source.js';
import type { IndexerSource } from './source.js';

/**
 * Starts the indexer and its probe server on `config.PORT`.
 *
 * @throws when the port is taken.
 */
export async function startIndexerService(
  config: IndexerConfig,
  logger: Logger,
): Promise<RunningService> {
  // Four connections for the writes, one kept for the chains' advisory locks (lock.ts).
  const db = createWriterDatabase(
    config.DATABASE_URL,
    { poolMax: 5, timeouts: { statementTimeoutMs: WRITER_STATEMENT_TIMEOUTS_MS.indexer } },
    logger,
  );
  const locks = new ChainLocks(db);
  const metrics = createMetrics({ prefix: 'monitoring_indexer_' });
  const indexers: IndexerSource[] = config.INDEXER_CHAINS.map((chain) =>
    chain.family === 'solana'
      ? new SolanaSource(chain, new SolanaRpc(chain.rpcUrls, chain.rpcTimeoutMs), db, locks)
      : new ChainIndexer(chain, createChainClient(chain), createChainClient(chain, 0), db, locks),
  );
  const moveIndexers = [
    ...config.INDEXER_SUI_CHAINS.map((c) =>
      moveIndexer(c, c.startCheckpoint, c.maxCheckpointRange, new SuiGraphqlReader(c)),
    ),
    ...config.INDEXER_APTOS_CHAINS.map((c) =>
      moveIndexer(c, c.startVersion, c.maxVersionRange, new AptosReader(c)),
    ),
  ].map(({ settings, reader }) => new MoveChainIndexer(settings, reader, db, locks));
  if (indexers.length + moveIndexers.length === 0) {
    logger.warn('INDEXER_CHAINS is empty: nothing to index');
  }
  const runner = startIndexerRunner({
    indexers: [...indexers, ...moveIndexers],
    db,
    // One Iris budget for every indexer process on this database (iris-budget.ts).
    iris: new IrisClient(config.IRIS_URL, new PgRateGate(db, config.IRIS_RATE_PER_SECOND)),
    attestation: {
      timeoutSeconds: config.ATTESTATION_TIMEOUT_SECONDS,
      recheckSeconds: config.IRIS_RECHECK_SECONDS,
      maxBackoffSeconds: config.IRIS_MAX_BACKOFF_SECONDS,
      giveUpSeconds: config.ATTESTATION_GIVE_UP_SECONDS,
      giveUpRecheckSeconds: config.ATTESTATION_GIVE_UP_RECHECK_SECONDS,
      // About one second of the budget per pass, so a newly due transfer waits at most that.
      batch: config.IRIS_RATE_PER_SECOND,
    },
    logger,
    registry: metrics.registry,
  });

  const { server, port } = await startProbeServer({
    port: config.PORT,
    logger,
    registry: metrics.registry,
    health: () => ({ status: 'ok', chains: runner.chains }),
    // Ready when the database answers within 2 s and holds the indexer's tables (migrated).
    ready: () => db.execute('select 1 from indexer_cursors limit 1'),
  });
  logger.info(
    {
      port,
      chains: [
        ...config.INDEXER_CHAINS,
        ...config.INDEXER_SUI_CHAINS,
        ...config.INDEXER_APTOS_CHAINS,
      ].map((c) => c.name),
      iris: config.IRIS_URL,
    },
    'monitoring-indexer running',
  );
  return {
    server,
    async close() {
      await runner.stop();
      await locks.close();
      await db.close();
    },
  };
}

/** The loop settings and reader of a Sui or Aptos chain. */
function moveIndexer<R>(
  chain: { name: string; network: 'mainnet' | 'testnet'; domain: number; pollIntervalMs: number },
  start: number,
  maxRange: number,
  reader: R,
) {
  const { name, network, domain, pollIntervalMs } = chain;
  return {
    settings: {
      name,
      network,
      domain,
      pollIntervalMs,
      start: BigInt(start),
      maxRange: BigInt(maxRange),
    },
    reader,
  };
}
