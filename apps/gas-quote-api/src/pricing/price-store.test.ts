import { createMemoryKvStore } from '@ctss/server-kit';
import { MissingPriceDataError, createPriceStore } from './price-store.js';

describe('the price store', () => {
  const T = 1_763_000_000_000;
  let now = T;
  const kv = createMemoryKvStore('test:');
  const store = createPriceStore(kv, { maxAgeSeconds: 120, clock: () => now });

  beforeEach(() => {
    now = T;
  });

  it('returns entries up to exactly the maximum age and rejects them 1 ms later', async () => {
    await store.putGas(0, { price: 3_000_000_000n, decimals: 18 }, T, 'test');
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    now = T + 120_000;
    await expect(store.gas(0)).resolves.toEqual({ price: 3_000_000_000n, decimals: 18, observedAt: T, source: 'test' });
    await expect(store.usd('ETH')).resolves.toMatchObject({ price: 300_000_000_000n });
    now = T + 120_001;
    await expect(store.gas(0)).rejects.toThrow(MissingPriceDataError);
    await expect(store.usd('ETH')).rejects.toThrow(/ETH USD price data is 120 s old/);
    await expect(store.gasRaw(0)).resolves.toMatchObject({ observedAt: T });
  });

  it('reports missing and malformed entries as missing price data', async () => {
    await expect(store.gas(99)).rejects.toThrow(/no gas price of domain 99 data/);
    await kv.set('usd:SOL', 'not json');
    await expect(store.usd('SOL')).rejects.toThrow(MissingPriceDataError);
    await kv.set('usd:SOL', JSON.stringify({ price: '-1', observedAt: T, source: 'x' }));
    await expect(store.usd('SOL')).rejects.toThrow(/malformed/);
  });
});
