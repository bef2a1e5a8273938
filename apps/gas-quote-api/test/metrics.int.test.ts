/**
 * /metrics: built from in-process values (a scrape reads nothing from the store), route labels
 * are route patterns, and METRICS_PORT moves it off the API port (where it is otherwise rate
 * limited like any path).
 */
import type { Server } from 'node:http';
import { createChainRegistry } from '@ctss/domain-types';
import { createEdgeServer, createLogger, listen, type KvStore } from '@ctss/server-kit';
import { freePort } from '@ctss/test-support';
import { createApp } from '../src/app.js';
import { buildAppDeps } from '../src/deps.js';
import { createGasQuoteMetrics } from '../src/metrics.js';
import { createPriceStore } from '../src/prices/store.js';
import {
  testClock,
  testConfig,
  testEcdsaSigner,
  testEd25519Signer,
  testKv,
  uniquePrefix,
} from './support/app.js';
import { mainConfig, removePrefix, startAsMain } from './support/main-service.js';

const prefix = uniquePrefix('metrics');
const logger = createLogger({ name: 'metrics-test', level: 'silent' });
const redisEnv: Record<string, string> = process.env.REDIS_URL
  ? { REDIS_URL: process.env.REDIS_URL }
  : {};

afterAll(() => removePrefix(prefix));

/** Our real store, with every method call counted by name. */
function countingKv(kv: KvStore): { kv: KvStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(kv, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { kv: proxy, calls };
}

describe('a scrape', () => {
  let server: Server;
  let base: string;
  let inner: KvStore;
  let counted: ReturnType<typeof countingKv>;
  const clock = testClock();

  beforeAll(async () => {
    inner = testKv(prefix);
    counted = countingKv(inner);
    const config = testConfig({
      REDIS_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...redisEnv,
    });
    const registry = createChainRegistry();
    const store = createPriceStore(counted.kv, {
      maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
      clock,
      registry,
    });
    const gas = createApp(
      buildAppDeps({
        config,
        kv: counted.kv,
        priceStore: store,
        clock,
        signers: { ecdsa: testEcdsaSigner, ed25519: testEd25519Signer },
        logger,
        metrics: createGasQuoteMetrics(),
        registry,
      }),
    );
    await store.putGas(0, { price: 20_000_000_000n, decimals: 18 }, clock() - 3_000, 'test');
    await store.putUsd('ETH', 300_000_000_000n, clock() - 5_000, 'test');
    server = createEdgeServer(gas.app, { logger });
    base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    // One request loads the in-process copy the quote routes (and the gauge) read.
    expect((await fetch(`${base}/tokenPrices`)).status).toBe(200);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await inner.close();
  });

  it('reads nothing from the store, and reports price ages from the in-process copy', async () => {
    counted.calls.length = 0;
    clock.advance(2_000);
    let text = '';
    for (let i = 0; i < 5; i += 1) {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      text = await res.text();
    }
    expect(counted.calls).toEqual([]);
    expect(text).toMatch(/gas_quote_price_age_seconds\{domain="0",kind="gas"\} 5\n/);
    expect(text).toMatch(/gas_quote_price_age_seconds\{domain="0",kind="usd"\} 7\n/);
  });

  it('labels requests by route pattern, whatever the case of the path, and 404s as unmatched', async () => {
    await fetch(`${base}/TOKENPRICES`);
    await fetch(`${base}/TokenPrices`);
    await fetch(`${base}/no/such/path`);
    await fetch(`${base}/docs/no-such-file.js`);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/route="\/tokenPrices",status="200"\} 3\n/);
    expect(text).not.toMatch(/route="\/TOKENPRICES"/);
    expect(text).not.toMatch(/route="\/TokenPrices"/);
    expect(text).toMatch(
      /gas_quote_http_requests_total\{method="GET",route="unmatched",status="404"\} 2\n/,
    );
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on that port only, without the rate limit, and nothing else there', async () => {
    const metricsPort = await freePort();
    const metrics = `http://127.0.0.1:${metricsPort}`;
    const config = mainConfig(uniquePrefix('metrics-port'), {
      METRICS_PORT: String(metricsPort),
      RATE_LIMIT_PER_MINUTE: '2',
    });
    const { port, shutdown } = await startAsMain(config, logger);
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await fetch(`${metrics}/metrics`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('gas_quote_http_requests_total');
      }
      const elsewhere = await fetch(`${metrics}/health`);
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.json()).toMatchObject({ code: 'NOT_FOUND' });
      const onApiPort = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(onApiPort.status).toBe(404);
      expect(onApiPort.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    } finally {
      await shutdown('test');
    }
    await expect(fetch(`${metrics}/metrics`)).rejects.toThrow();
  });

  it('without it, /metrics is on the API port and rate limited like any path', async () => {
    const config = mainConfig(uniquePrefix('metrics-limit'), { RATE_LIMIT_PER_MINUTE: '2' });
    const { port, shutdown } = await startAsMain(config, logger);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push((await fetch(`http://127.0.0.1:${port}/metrics`)).status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await shutdown('test');
    }
  });
});
