/**
 * The price feeder (docs/architecture.md "Price path"):
 * each cycle, while holding the single-writer lock, it reads every chain's gas price, every
 * configured origin's transfer contract fee (`state().feeBP`) and every native token's USD price
 * (primary source, then fallbacks for what is missing), stores them with
 * their observation times, computes the fee matrix and publishes the `fees` and `tokenPrices`
 * messages (latest copy in the store, live copy on the pub/sub channel). Every write is fenced
 * by the lock, which a heartbeat renews every third of its lease; a cycle also runs at once when
 * the heartbeat takes the lock anew (a dead owner's lease ran out, or the store came back without
 * the lock and the prices) and when Redis reconnects (docs/decisions.md "D87. A short, fenced
 * feeder lease").
 */
import type { ChainRegistry, SubscribeMessage } from '@ctss/domain-types';
import type { Logger } from 'pino';
import { FenceLostError, type KvStore } from '@ctss/server-kit';
import { buildFeesMessage, freshDomainPrices, tokenPricesMessage } from '../pricing/fee-matrix.js';
import type { PriceStore } from '../prices/store.js';
import type { PricingParams } from '../pricing/route-pricer.js';
import { LATEST_KEYS, UPDATES_CHANNEL } from '../channels.js';
import type { LeaderLock } from './lock.js';
import type { ContractFeeSource, GasSource, UsdSource } from './sources/types.js';
import type { Clock } from '../clock.js';

const LATEST_TTL_SECONDS = 86_400;

/** Dependencies of {@link createFeeder}. */
export interface FeederDeps {
  readonly registry: ChainRegistry;
  readonly store: PriceStore;
  readonly kv: KvStore;
  readonly params: PricingParams;
  readonly gasSources: readonly GasSource[];
  /** USD sources in order of preference: the first is primary, the rest fallbacks. */
  readonly usdSources: readonly UsdSource[];
  /** Transfer contract fee sources, one per origin domain read (default none). */
  readonly contractFeeSources?: readonly ContractFeeSource[];
  readonly lock: LeaderLock;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Called after each scheduled cycle with its report, or the error that ended it (for metrics). */
  readonly onCycle?: (outcome: RefreshReport | Error) => void;
}

/** What one refresh did. */
export interface RefreshReport {
  /** False when another feeder holds the lock and nothing was written. */
  readonly wrote: boolean;
  readonly gasUpdated: number[];
  readonly gasFailed: number[];
  /** Symbol to the source that priced it. */
  readonly usdUpdated: Record<string, string>;
  readonly usdMissing: string[];
  /** Origin domains whose transfer contract fee was read and stored, and those whose read failed. */
  readonly contractFeeUpdated: number[];
  readonly contractFeeFailed: number[];
}

/** A running or runnable feeder. */
export interface Feeder {
  /** Runs one refresh cycle now. Source failures are logged, never thrown. @throws on store failures. */
  refresh(): Promise<RefreshReport>;
  /**
   * Refreshes now and then every `intervalMs`, renews the lock on a heartbeat (a third of its
   * lease) and refreshes at once when the heartbeat takes the lock anew or Redis reconnects;
   * errors of a cycle are logged. A cycle never overlaps another.
   */
  start(intervalMs: number): void;
  /** Stops the interval and the heartbeat, waits for a running cycle, releases the lock. */
  stop(): Promise<void>;
}

/** Builds a {@link Feeder}. */
export function createFeeder(deps: FeederDeps): Feeder {
  const log = deps.logger;
  const fence = deps.lock.fence;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let stopReconnect: (() => void) | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;

  async function refresh(): Promise<RefreshReport> {
    if ((await deps.lock.acquireOrRenew()) === 'elsewhere') {
      log.debug('feeder lock held elsewhere; skipping cycle');
      return {
        wrote: false,
        gasUpdated: [],
        gasFailed: [],
        usdUpdated: {},
        usdMissing: [],
        contractFeeUpdated: [],
        contractFeeFailed: [],
      };
    }
    const gasUpdated: number[] = [];
    const gasFailed: number[] = [];
    await Promise.all(
      deps.gasSources.map(async (source) => {
        try {
          const gas = await source.fetch();
          await deps.store.putGas(source.domain, gas, deps.clock(), source.name, fence);
          gasUpdated.push(source.domain);
        } catch (err) {
          if (err instanceof FenceLostError) throw err;
          gasFailed.push(source.domain);
          log.warn({ err, domain: source.domain, source: source.name }, 'gas price refresh failed');
        }
      }),
    );

    // The transfer contracts' percentage fees (docs/api.md "Routes"), read as the gas prices are.
    const contractFeeUpdated: number[] = [];
    const contractFeeFailed: number[] = [];
    await Promise.all(
      (deps.contractFeeSources ?? []).map(async (source) => {
        try {
          const bps = await source.fetch();
          await deps.store.putContractFee(source.domain, bps, deps.clock(), source.name, fence);
          contractFeeUpdated.push(source.domain);
        } catch (err) {
          if (err instanceof FenceLostError) throw err;
          contractFeeFailed.push(source.domain);
          log.warn(
            { err, domain: source.domain, source: source.name },
            'transfer contract fee refresh failed',
          );
        }
      }),
    );

    let remaining = [...new Set(deps.registry.all().map((c) => c.nativeSymbol))];
    const usdUpdated: Record<string, string> = {};
    for (const source of deps.usdSources) {
      if (remaining.length === 0) break;
      try {
        const got = await source.fetch(remaining);
        for (const [symbol, q] of got) {
          await deps.store.putUsd(symbol, q.price, q.observedAt, source.name, fence);
          usdUpdated[symbol] = source.name;
        }
        remaining = remaining.filter((s) => !got.has(s));
      } catch (err) {
        if (err instanceof FenceLostError) throw err;
        log.warn({ err, source: source.name }, 'USD price source failed; trying the next one');
      }
    }
    if (remaining.length > 0) log.warn({ symbols: remaining }, 'no source priced these tokens');

    await publishLatest();
    gasUpdated.sort((a, b) => a - b);
    gasFailed.sort((a, b) => a - b);
    contractFeeUpdated.sort((a, b) => a - b);
    contractFeeFailed.sort((a, b) => a - b);
    return {
      wrote: true,
      gasUpdated,
      gasFailed,
      usdUpdated,
      usdMissing: remaining,
      contractFeeUpdated,
      contractFeeFailed,
    };
  }

  async function publishLatest(): Promise<void> {
    const prices = await freshDomainPrices(deps.registry, deps.store);
    const messages: SubscribeMessage[] = [
      await buildFeesMessage(deps.registry, deps.store, deps.params, prices),
      tokenPricesMessage(prices),
    ];
    for (const message of messages) {
      const json = JSON.stringify(message);
      await deps.lock.write(LATEST_KEYS[message.type], json, LATEST_TTL_SECONDS);
      await deps.kv.publish(UPDATES_CHANNEL, json);
    }
  }

  function cycle(): void {
    if (busy) return;
    busy = true;
    running = refresh().then(
      (report) => {
        log.debug({ report }, 'feeder cycle done');
        deps.onCycle?.(report);
      },
      (err: unknown) => {
        log.error({ err }, 'feeder cycle failed');
        deps.onCycle?.(err instanceof Error ? err : new Error(String(err)));
      },
    );
    void running.finally(() => {
      busy = false;
    });
  }

  /** Renews the lease; a lock taken anew (not renewed) means the store's prices may be gone: refresh now. */
  function beat(): void {
    deps.lock.acquireOrRenew().then(
      (state) => {
        if (state !== 'acquired' || timer === undefined) return;
        log.info({ event: 'feeder_lock_acquired' }, 'feeder lock taken anew; refreshing now');
        cycle();
      },
      (err: unknown) => log.debug({ err }, 'feeder lock renewal failed'),
    );
  }

  return {
    refresh,
    start(intervalMs) {
      if (timer) return;
      cycle();
      timer = setInterval(cycle, intervalMs);
      timer.unref();
      heartbeat = setInterval(beat, Math.max(100, Math.floor((deps.lock.ttlSeconds * 1000) / 3)));
      heartbeat.unref();
      stopReconnect = deps.kv.redis?.onReconnect(() => {
        log.info({ event: 'feeder_redis_back' }, 'Redis is back; refreshing prices now');
        cycle();
      });
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (heartbeat) clearInterval(heartbeat);
      stopReconnect?.();
      timer = undefined;
      heartbeat = undefined;
      stopReconnect = undefined;
      await running;
      // With Redis away the release cannot reach it; the lease then expires by itself.
      await deps.lock.release().catch((err: unknown) => {
        deps.logger.warn({ err }, 'could not release the feeder lock; it expires with its lease');
      });
    },
  };
}
