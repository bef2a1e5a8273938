/**
 * Assembles the feeder's sources from configuration: live RPCs, price APIs and the configured
 * transfer contracts, or the bundled snapshot.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import type { KvStore, Logger } from '@ctss/server-kit';
import type { GasQuoteConfig } from '../config.js';
import type { PriceStore } from '../prices/store.js';
import type { PricingParams } from '../pricing/route-pricer.js';
import { createFeeder, type Feeder, type RefreshReport } from './feeder.js';
import { createFeederLock, feederLeaseSeconds } from './lock.js';
import { createAptosGasSource } from './sources/aptos.js';
import { createCoinGeckoSource } from './sources/coingecko.js';
import { createEvmContractFeeSource } from './sources/contract-fee.js';
import { createEvmGasSource } from './sources/evm.js';
import { createPythSource } from './sources/pyth.js';
import {
  loadSnapshot,
  snapshotContractFeeSources,
  snapshotGasSources,
  snapshotUsdSource,
  type Snapshot,
} from './sources/snapshot.js';
import { createSolanaGasSource } from './sources/solana.js';
import { createSuiGasSource } from './sources/sui.js';
import type { ContractFeeSource, GasSource, UsdSource } from './sources/types.js';
import type { Clock } from '../clock.js';

/** Key of the single-writer lock in the KvStore. */
export const FEEDER_LOCK_KEY = 'feeder:lock';

/** The gas sources for every chain with an RPC URL. */
function buildGasSources(
  config: GasQuoteConfig,
  registry: ChainRegistry,
  params: PricingParams,
): GasSource[] {
  const timeoutMs = config.UPSTREAM_TIMEOUT_MS;
  const multiplierBps = config.GAS_PRICE_MULTIPLIER_BPS;
  const sources: GasSource[] = [];
  for (const [domain, rpcUrl] of config.rpcUrls) {
    const chain = registry.require(domain);
    switch (chain.vm) {
      case 'evm':
        sources.push(
          createEvmGasSource({
            domain,
            rpcUrl,
            multiplierBps,
            timeoutMs,
            priorityPercentile: config.EVM_PRIORITY_FEE_PERCENTILE,
            blockCount: 10,
          }),
        );
        break;
      case 'solana':
        sources.push(
          createSolanaGasSource({
            domain,
            rpcUrl,
            multiplierBps,
            timeoutMs,
            priorityPercentile: config.SOLANA_PRIORITY_FEE_PERCENTILE,
            redeemComputeUnits: params.redeemGas(domain),
            signatures: 1n,
          }),
        );
        break;
      case 'sui':
        sources.push(createSuiGasSource({ domain, rpcUrl, multiplierBps, timeoutMs }));
        break;
      case 'aptos':
        sources.push(createAptosGasSource({ domain, rpcUrl, multiplierBps, timeoutMs }));
        break;
    }
  }
  return sources;
}

/** A `state().feeBP` reader for every origin with TRANSFER_CONTRACT_<DOMAIN> (config checked it has an RPC URL). */
function buildContractFeeSources(config: GasQuoteConfig): ContractFeeSource[] {
  return [...config.transferContracts].flatMap(([domain, contract]) => {
    const rpcUrl = config.rpcUrls.get(domain);
    return rpcUrl === undefined
      ? []
      : [
          createEvmContractFeeSource({
            domain,
            rpcUrl,
            contract,
            timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          }),
        ];
  });
}

/**
 * The contract fee sources: the configured contracts read on-chain, whatever the price source;
 * in snapshot mode, the snapshot's default for the other origins (labelled `snapshot`).
 */
function contractFeeSources(
  config: GasQuoteConfig,
  snapshot: Snapshot | undefined,
): ContractFeeSource[] {
  const read = buildContractFeeSources(config);
  if (!snapshot) return read;
  const readDomains = new Set(read.map((s) => s.domain));
  return [
    ...read,
    ...snapshotContractFeeSources(snapshot).filter((s) => !readDomains.has(s.domain)),
  ];
}

/** Pyth Hermes first, then the CoinGecko-style fallback. */
function buildUsdSources(config: GasQuoteConfig, clock: Clock): UsdSource[] {
  return [
    createPythSource({
      baseUrl: config.PYTH_HERMES_URL,
      feedIds: config.pythFeedIds,
      maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
      maxConfidenceBps: config.PYTH_MAX_CONFIDENCE_BPS,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      clock,
    }),
    createCoinGeckoSource({
      baseUrl: config.PRICE_FALLBACK_URL,
      coinIds: config.fallbackCoinIds,
      maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      clock,
    }),
  ];
}

/** Builds the feeder for `config.priceSource` (snapshot or live). */
export function buildFeeder(deps: {
  config: GasQuoteConfig;
  registry: ChainRegistry;
  store: PriceStore;
  kv: KvStore;
  params: PricingParams;
  logger: Logger;
  clock: Clock;
  onCycle?: (outcome: RefreshReport | Error) => void;
}): Feeder {
  const { config, clock } = deps;
  const snapshot = config.priceSource === 'snapshot' ? loadSnapshot() : undefined;
  return createFeeder({
    registry: deps.registry,
    store: deps.store,
    kv: deps.kv,
    params: deps.params,
    logger: deps.logger,
    clock,
    ...(deps.onCycle ? { onCycle: deps.onCycle } : {}),
    gasSources: snapshot
      ? snapshotGasSources(snapshot)
      : buildGasSources(config, deps.registry, deps.params),
    usdSources: snapshot ? [snapshotUsdSource(snapshot, clock)] : buildUsdSources(config, clock),
    contractFeeSources: contractFeeSources(config, snapshot),
    // A short lease renewed by a heartbeat, every write fenced by it (D87).
    lock: createFeederLock(
      deps.kv,
      FEEDER_LOCK_KEY,
      feederLeaseSeconds(config.FEEDER_INTERVAL_SECONDS),
    ),
  });
}
