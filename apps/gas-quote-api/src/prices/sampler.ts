/**
 * Price facts derived from the in-process copy of the store, for the metrics: the age of each
 * served chain's gas entry and native token USD entry.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import type { Clock } from '../clock.js';
import type { PriceAgeSample } from '../metrics.js';
import type { PriceStore } from './store.js';

/** Dependencies of {@link priceAgeSamples}. */
export interface PriceAgeDeps {
  readonly priceStore: Pick<PriceStore, 'lastLoaded'>;
  readonly registry: ChainRegistry;
  readonly clock: Clock;
}

/**
 * The age, seconds at `clock()`, of every gas and USD entry of the last in-process copy (none
 * before the first read; absent or malformed entries are left out). Reads no backend: the copy is
 * at most about a second behind the store (docs/decisions.md "D21. Single feeder and the
 * in-process price copy").
 */
export function priceAgeSamples(deps: PriceAgeDeps): PriceAgeSample[] {
  const loaded = deps.priceStore.lastLoaded();
  if (!loaded) return [];
  const now = deps.clock();
  const samples: PriceAgeSample[] = [];
  for (const chain of deps.registry.all()) {
    const gas = loaded.gas.get(chain.domain);
    const usd = loaded.usd.get(chain.nativeSymbol);
    if (gas && !(gas instanceof Error))
      samples.push({
        domain: chain.domain,
        kind: 'gas',
        ageSeconds: (now - gas.observedAt) / 1000,
      });
    if (usd && !(usd instanceof Error))
      samples.push({
        domain: chain.domain,
        kind: 'usd',
        ageSeconds: (now - usd.observedAt) / 1000,
      });
  }
  return samples;
}
