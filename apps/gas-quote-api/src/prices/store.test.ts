import { createChainRegistry } from '@ctss/domain-types';
import { createKvStore, createLogger, createMemoryKvStore } from '@ctss/server-kit';
import { MissingPriceDataError } from './entries.js';
import { createPriceStore } from './store.js';

describe('the price store', () => {
  const T = 1_763_000_000_000;
  let now = T;
  const kv = createMemoryKvStore('test:');
  const store = createPriceStore(kv, {
    maxAgeSeconds: 120,
    clock: () => now,
    registry: createChainRegistry(),
  });

  beforeEach(() => {
    now = T;
  });

  it('returns entries up to exactly the maximum age and rejects them 1 ms later', async () => {
    await store.putGas(0, { price: 3_000_000_000n, decimals: 18 }, T, 'test');
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    now = T + 120_000;
    await expect(store.gas(0)).resolves.toEqual({
      price: 3_000_000_000n,
      decimals: 18,
      observedAt: T,
      source: 'test',
    });
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

describe('the in-process snapshot of the price store', () => {
  const T = 1_763_000_000_000;
  const registry = createChainRegistry();
  let now = T;
  const clock = () => now;
  const gwei = (n: bigint) => ({ price: n * 1_000_000_000n, decimals: 18 });

  /** The snapshot, awaited when it has to be read from the store. */
  async function snap(store: ReturnType<typeof createPriceStore>) {
    return await store.snapshot();
  }

  beforeEach(() => {
    now = T;
  });

  it('refuses an entry older than the maximum age even when the copy itself is never re-read', async () => {
    const kv = createMemoryKvStore('snap1:');
    const store = createPriceStore(kv, {
      maxAgeSeconds: 120,
      clock,
      registry,
      refreshMs: 3_600_000,
    });
    await store.putGas(0, gwei(3n), T, 'test');
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    const loaded = await snap(store);
    now = T + 120_000;
    expect(store.snapshot()).toBe(loaded); // the same in-process copy, not re-read
    expect(loaded.gas(0)).toMatchObject({ price: 3_000_000_000n, observedAt: T });
    expect(JSON.parse(loaded.tokenPricesJson())).toMatchObject({ '0': 3000 });
    now = T + 120_001;
    expect(store.snapshot()).toBe(loaded);
    expect(() => loaded.gas(0)).toThrow(/gas price of domain 0 data is 120 s old \(max 120 s\)/);
    expect(() => loaded.usd('ETH')).toThrow(MissingPriceDataError);
    expect(() => loaded.tokenPricesJson()).toThrow(/no fresh token prices/);
  });

  it('re-reads the store once the copy is older than refreshMs, and at once after a write through the store', async () => {
    const kv = createMemoryKvStore('snap2:');
    const store = createPriceStore(kv, { maxAgeSeconds: 120, clock, registry });
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    const first = await snap(store);
    // Another replica's feeder writes to the shared store directly.
    await kv.set(
      'usd:ETH',
      JSON.stringify({ price: '310000000000', observedAt: T + 500, source: 'other' }),
    );
    now = T + 1000;
    expect((await snap(store)).usd('ETH').price).toBe(300_000_000_000n);
    now = T + 1001;
    const second = await snap(store);
    expect(second).not.toBe(first);
    expect(second.usd('ETH')).toEqual({
      price: 310_000_000_000n,
      observedAt: T + 500,
      source: 'other',
    });
    await store.putUsd('ETH', 320_000_000_000n, T + 1001, 'test');
    expect((await snap(store)).usd('ETH').price).toBe(320_000_000_000n);
  });

  it('re-reads the store when an update message arrives on the watched channel', async () => {
    const kv = createMemoryKvStore('snap3:');
    const store = createPriceStore(kv, { maxAgeSeconds: 120, clock, registry });
    const errors: unknown[] = [];
    const stop = await store.watch('updates', (err) => errors.push(err));
    try {
      await store.putUsd('SOL', 150n * 10n ** 8n, T, 'test');
      expect((await snap(store)).usd('SOL').price).toBe(150n * 10n ** 8n);
      await kv.set(
        'usd:SOL',
        JSON.stringify({ price: '16000000000', observedAt: T, source: 'other' }),
      );
      await kv.publish('updates', '{"type":"tokenPrices","data":{}}');
      for (let i = 0; i < 100 && (await snap(store)).usd('SOL').price !== 160n * 10n ** 8n; i++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect((await snap(store)).usd('SOL').price).toBe(160n * 10n ** 8n);
      expect(errors).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('reuses a derived value while its oldest entry is fresh, and reads the entries again once it is not', async () => {
    const kv = createMemoryKvStore('snap5:');
    const store = createPriceStore(kv, { maxAgeSeconds: 120, clock, registry });
    await store.putGas(3, gwei(1n), T, 'test');
    await store.putUsd('ETH', 300_000_000_000n, T + 10_000, 'test');
    const s = await snap(store);
    let computed = 0;
    const fee = () =>
      s.derived('route:0:3', () => {
        computed += 1;
        const gas = s.gas(3);
        const usd = s.usd('ETH');
        return {
          price: gas.price * usd.price,
          oldestObservation: Math.min(gas.observedAt, usd.observedAt),
        };
      });
    expect(fee().price).toBe(300_000_000_000n * 1_000_000_000n);
    now = T + 120_000;
    expect(fee()).toBe(fee());
    expect(computed).toBe(1);
    now = T + 120_001;
    expect(fee).toThrow(/gas price of domain 3 data is 120 s old/);
    expect(fee).toThrow(MissingPriceDataError);
    expect(computed).toBe(3);
  });

  it('keeps serving the entries it holds when the store comes back without them, until they pass the maximum age', async () => {
    const kv = createMemoryKvStore('snap5:');
    const store = createPriceStore(kv, { maxAgeSeconds: 120, clock, registry, refreshMs: 1000 });
    await store.putGas(0, gwei(3n), T, 'test');
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    expect((await snap(store)).gas(0)).toMatchObject({ observedAt: T });
    // The store is emptied (a Redis restarted without persistence, FLUSHALL, an eviction) and
    // one entry is left malformed: the re-read keeps the entries held in process.
    await kv.del('gas:0');
    await kv.del('usd:ETH');
    await kv.set('usd:SOL', 'not json');
    now = T + 60_000;
    const afterFlush = await snap(store);
    expect(afterFlush.loadedAt).toBe(T + 60_000);
    expect(afterFlush.gas(0)).toMatchObject({ price: 3_000_000_000n, observedAt: T });
    expect(afterFlush.usd('ETH')).toMatchObject({ price: 300_000_000_000n });
    expect(() => afterFlush.usd('SOL')).toThrow(/price entry usd:SOL is not JSON/);
    // A newer write replaces the held entry; an older one stored later does not.
    await store.putGas(0, gwei(4n), T + 61_000, 'test');
    expect((await snap(store)).gas(0)).toMatchObject({ price: 4_000_000_000n });
    await kv.set('gas:0', JSON.stringify({ price: '1', decimals: 18, observedAt: T, source: 'x' }));
    now = T + 62_000;
    expect((await snap(store)).gas(0)).toMatchObject({ price: 4_000_000_000n });
    // Held entries still age out.
    now = T + 120_001;
    const aged = await snap(store);
    expect(() => aged.usd('ETH')).toThrow(/ETH USD price data is 120 s old/);
    expect(aged.gas(0)).toMatchObject({ observedAt: T + 61_000 });
  });

  it('reports missing and malformed entries like the store, and leaves stale tokens out of the token prices', async () => {
    const kv = createMemoryKvStore('snap4:');
    const store = createPriceStore(kv, { maxAgeSeconds: 120, clock, registry });
    await kv.set('gas:3', '{"price":"x"}');
    await store.putUsd('ETH', 300_000_000_000n, T, 'test');
    await store.putUsd('SOL', 150n * 10n ** 8n, T + 60_000, 'test');
    const s = await snap(store);
    expect(() => s.gas(3)).toThrow(/price entry gas:3 is malformed/);
    expect(() => s.gas(0)).toThrow(/no gas price of domain 0 data/);
    expect(JSON.parse(s.tokenPricesJson())).toEqual({ ...evmEth(registry, 3000), '5': 150 });
    now = T + 120_001;
    expect(JSON.parse(s.tokenPricesJson())).toEqual({ '5': 150 });
  });
});

/** Domain id to `price` for every served chain whose native token is ETH. */
function evmEth(
  registry: ReturnType<typeof createChainRegistry>,
  price: number,
): Record<string, number> {
  return Object.fromEntries(
    registry
      .all()
      .filter((c) => c.nativeSymbol === 'ETH')
      .map((c) => [String(c.domain), price]),
  );
}

describe('the price snapshot when the store never answered', () => {
  it('fails fast with MissingPriceDataError, and does not retry the store within refreshMs', async () => {
    // Port 6394 is reserved for this package's tests and has no Redis: a real, refused connection.
    const kv = createKvStore({
      redisUrl: 'redis://127.0.0.1:6394',
      prefix: 'test:',
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    let now = 1_763_000_000_000;
    const store = createPriceStore(kv, {
      maxAgeSeconds: 120,
      clock: () => now,
      registry: createChainRegistry(),
    });
    try {
      const started = Date.now();
      await expect(store.snapshot()).rejects.toThrow(MissingPriceDataError);
      now += 500;
      await expect(store.snapshot()).rejects.toThrow(/price store does not answer/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await kv.close();
    }
  });
});
