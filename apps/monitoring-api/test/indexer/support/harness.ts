/** Builds chain indexers over test chains and runs them until they have caught up. */
import type { Session } from '../../../src/db/statements.js';
import { ChainConfigSchema, type ChainConfig } from '../../../src/indexer/config.js';
import { ChainIndexer, type TickResult } from '../../../src/indexer/chain-indexer.js';
import { ChainLocks } from '../../../src/indexer/lock.js';
import { createChainClient } from '../../../src/indexer/rpc.js';
import { deployCctpChain, startAnvil, type Anvil, type CctpChain } from '@ctss/devnet';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/**
 * The INDEXER_CHAINS entry of a test chain as configuration text holds it, before parsing
 * (overrides applied last).
 */
export function chainConfigInput(
  name: string,
  chain: CctpChain,
  overrides: Partial<Record<keyof ChainConfig, unknown>> = {},
): Record<string, unknown> {
  return {
    name,
    network: 'mainnet',
    domain: chain.domain,
    rpcUrls: [chain.url],
    transferContracts: [chain.cashmere, chain.cashmereLegacy],
    messageTransmitters: [chain.transmitterV1, chain.transmitterV2],
    tokenMessengers: [chain.messengerV1, chain.messengerV2],
    usdc: chain.usdc,
    startBlock: chain.startBlock,
    confirmations: 2,
    pollIntervalMs: 50,
    maxBlockRange: 5,
    ...overrides,
  };
}

/** The indexer config of a test chain (overrides applied last). */
export function chainConfig(
  name: string,
  chain: CctpChain,
  overrides: Partial<Record<keyof ChainConfig, unknown>> = {},
): ChainConfig {
  return ChainConfigSchema.parse(chainConfigInput(name, chain, overrides));
}

/** A chain indexer over `config`. */
export function indexerFor(config: ChainConfig, db: Session, locks: ChainLocks): ChainIndexer {
  return new ChainIndexer(
    config,
    createChainClient(config),
    createChainClient(config, 0),
    db,
    locks,
  );
}

/**
 * Ticks every indexer until each is idle at the chain head (one standing by is ticked again
 * after a pause: a lock released by a closed session frees up shortly after).
 *
 * @returns the results of the last round.
 * @throws after `maxRounds` rounds without catching up.
 */
export async function syncAll(indexers: ChainIndexer[], maxRounds = 200): Promise<TickResult[]> {
  for (let round = 0; round < maxRounds; round++) {
    const results = await Promise.all(indexers.map((i) => i.tick()));
    if (results.every((r) => r.kind === 'idle')) return results;
    if (results.some((r) => r.kind === 'standby')) await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('indexers did not catch up');
}

/** A local anvil chain with the CCTP contracts deployed, a test database and chain locks over it. */
export interface IndexedChain {
  readonly anvil: Anvil;
  readonly chain: CctpChain;
  readonly db: TestDatabase;
  readonly locks: ChainLocks;
}

/**
 * Starts anvil on `port` with chain id `chainId`, deploys the CCTP contracts there as CCTP domain
 * `domain`, and creates a test database of its own with chain locks over it; anvil is stopped
 * again when a later step throws.
 *
 * @throws when anvil does not start, a deployment fails or the database cannot be created.
 */
export async function startIndexedChain(
  port: number,
  chainId: number,
  domain: number,
): Promise<IndexedChain> {
  const anvil = await startAnvil(port, chainId);
  try {
    const chain = await deployCctpChain(anvil.url, domain, chainId);
    const db = await createTestDatabase();
    return { anvil, chain, db, locks: new ChainLocks(db.database) };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

/** Closes the locks, drops the database and stops anvil of `fixture` (nothing when undefined). */
export async function stopIndexedChain(fixture: IndexedChain | undefined): Promise<void> {
  await fixture?.locks.close();
  await fixture?.db.drop();
  await fixture?.anvil.stop();
}
