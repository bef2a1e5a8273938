/**
 * Test builders: an app wired like main.ts, with a fixed clock, known keys, a unique store prefix,
 * and Redis when REDIS_URL is set (the in-process store otherwise).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import { createChainRegistry, type ChainRegistry } from '@ctss/domain-types';
import {
  connectionLimitsFromConfig,
  createEdgeServer,
  createKvStore,
  createLogger,
  listen,
  type KvStore,
} from '@ctss/server-kit';
import { loadEd25519Signer, loadSecp256k1Signer } from '@ctss/signing';
import { createApp, type GasQuoteApp } from '../../src/app.js';
import { loadConfig, type GasQuoteConfig } from '../../src/config.js';
import { buildAppDeps, type AppDeps } from '../../src/deps.js';
import { createFeeder, type Feeder } from '../../src/feeder/feeder.js';
import { createFeederLock } from '../../src/feeder/lock.js';
import {
  loadSnapshot,
  snapshotContractFeeSources,
  snapshotGasSources,
  snapshotUsdSource,
} from '../../src/feeder/sources/snapshot.js';
import { createGasQuoteMetrics, type GasQuoteMetrics } from '../../src/metrics.js';
import { createPriceStore, type PriceStore } from '../../src/prices/store.js';
import { attachApp } from '../../src/server.js';
import { SUBSCRIBE_PATH } from '../../src/feed/router.js';

/** Fixed test keys (never used anywhere else). */
const TEST_ECDSA_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const TEST_ED25519_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const testEcdsaSigner = loadSecp256k1Signer(TEST_ECDSA_KEY);
export const testEd25519Signer = loadEd25519Signer(TEST_ED25519_SEED);

/** 2025-11-13T02:13:20Z, a whole second, in ms. */
export const T0 = 1_763_000_000_000;

/** A settable clock. */
export interface TestClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = T0): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.set = (ms) => {
    now = ms;
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

/** A unique key prefix for one test file's Redis keys. */
export function uniquePrefix(name: string): string {
  return `test:gas:${name}:${randomUUID().slice(0, 8)}:`;
}

/** The store backend in use for this run. */
export const usingRedis = Boolean(process.env.REDIS_URL);

/** Creates the kv store: Redis at `redisUrl` (default REDIS_URL) when set, else in-process. */
export function testKv(prefix: string, redisUrl = process.env.REDIS_URL): KvStore {
  return createKvStore({
    redisUrl,
    prefix,
    logger: createLogger({ name: 'gas-quote-api-test', level: 'silent' }),
  });
}

/** Deletes every Redis key under `prefix` (never FLUSHALL). No-op for the in-process store. */
export async function cleanupKv(kv: KvStore, prefix: string): Promise<void> {
  const redis = kv.redis;
  if (!redis) return;
  let cursor = '0';
  do {
    const [next, keys] = (await redis.sendCommand([
      'SCAN',
      cursor,
      'MATCH',
      `${prefix}*`,
      'COUNT',
      '500',
    ])) as [string, string[]];
    cursor = next;
    if (keys.length > 0) await redis.sendCommand(['DEL', ...keys]);
  } while (cursor !== '0');
}

/** A test configuration: known keys, silent logs, and `env` on top. */
export function testConfig(env: Record<string, string> = {}): GasQuoteConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SIGNER_ECDSA_PRIVATE_KEY: TEST_ECDSA_KEY,
    SIGNER_ED25519_PRIVATE_KEY: TEST_ED25519_SEED,
    ...env,
  });
}

/** Everything a test needs around one app instance. */
export interface TestApp {
  /** The route table under test. */
  readonly gas: GasQuoteApp;
  /** Its services: quotes, routes, the WebSocket hub, pricing parameters. */
  readonly deps: AppDeps;
  readonly config: GasQuoteConfig;
  readonly kv: KvStore;
  readonly store: PriceStore;
  readonly clock: TestClock;
  readonly registry: ChainRegistry;
  readonly metrics: GasQuoteMetrics;
  readonly prefix: string;
  /** A feeder over the bundled snapshot writing at the test clock. */
  readonly snapshotFeeder: Feeder;
  /** Starts a real HTTP server (port 0) with WebSockets attached; resolves to its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Builds an app like main.ts does. `prefix` lets two instances share one store. */
export function buildTestApp(
  opts: {
    env?: Record<string, string>;
    prefix?: string;
    clock?: TestClock;
    /** Redis of the test's own (default REDIS_URL, else the in-process store). */
    redisUrl?: string;
  } = {},
): TestApp {
  const prefix = opts.prefix ?? uniquePrefix('app');
  const config = testConfig({ REDIS_PREFIX: prefix, ...opts.env });
  const clock = opts.clock ?? testClock();
  const kv = testKv(prefix, opts.redisUrl ?? process.env.REDIS_URL);
  const registry = createChainRegistry();
  const store = createPriceStore(kv, {
    maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
    clock,
    registry,
  });
  const metrics = createGasQuoteMetrics();
  const logger = createLogger({ name: 'gas-quote-api-test', level: 'silent' });
  const deps = buildAppDeps({
    config,
    kv,
    priceStore: store,
    clock,
    signers: { ecdsa: testEcdsaSigner, ed25519: testEd25519Signer },
    logger,
    metrics,
    registry,
  });
  const gas = createApp(deps);
  const snapshot = loadSnapshot();
  const snapshotFeeder = createFeeder({
    registry,
    store,
    kv,
    params: deps.params,
    gasSources: snapshotGasSources(snapshot),
    usdSources: [snapshotUsdSource(snapshot, clock)],
    contractFeeSources: snapshotContractFeeSources(snapshot),
    lock: createFeederLock(kv, 'feeder:lock', 30),
    logger,
    clock,
  });
  let server: Server | undefined;
  let detach: (() => Promise<void>) | undefined;
  return {
    gas,
    deps,
    config,
    kv,
    store,
    clock,
    registry,
    metrics,
    prefix,
    snapshotFeeder,
    async listen() {
      server = createEdgeServer(gas.app, {
        logger,
        upgradePaths: [SUBSCRIBE_PATH],
        limits: connectionLimitsFromConfig(config),
      });
      detach = await attachApp(server, gas, deps);
      const port = await listen(server, 0, '127.0.0.1');
      return `http://127.0.0.1:${port}`;
    },
    async close() {
      await detach?.();
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server!.close(() => resolve()));
      }
      await snapshotFeeder.stop();
      await cleanupKv(kv, prefix);
      await kv.close();
    },
  };
}

/**
 * GET of a CCTP v2 ECDSA quote (`/getEcdsaSig_native`, `isV2=true`) from `t`'s app, from CCTP
 * domain `localDomain` to `destinationDomain`; the fee in origin native units when `isNative`.
 */
export function ecdsaV2Quote(
  t: TestApp,
  localDomain: number,
  destinationDomain: number,
  isNative: boolean,
): request.Test {
  return request(t.gas.app).get(
    `/getEcdsaSig_native?localDomain=${localDomain}&destinationDomain=${destinationDomain}&isV2=true&isNative=${isNative}`,
  );
}
