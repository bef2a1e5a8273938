/**
 * Price feeder entry point (its own Deployment in production): refreshes gas and token prices
 * every FEEDER_INTERVAL_SECONDS into the shared store (Redis), holding the single-writer lock,
 * and publishes the `fees` and `tokenPrices` messages. Serves `GET /health` and `GET /metrics`
 * on FEEDER_PORT for its probes. Shuts down on SIGTERM: stops the cycle, releases the lock,
 * closes Redis.
 */
import { createChainRegistry } from '@ctss/domain-types';
import {
  ConfigError,
  createKvStore,
  createLogger,
  createEdgeServer,
  createMetrics,
  listen,
  metricsHandler,
  runService,
} from '@ctss/server-kit';
import express from 'express';
import { Counter, Gauge } from 'prom-client';
import { loadConfig, type GasQuoteConfig } from '../config.js';
import { buildFeeder } from '../feeder/build.js';
import type { RefreshReport } from '../feeder/feeder.js';
import { createPricingParams } from '../pricing/params.js';
import { createPriceStore } from '../prices/store.js';

let config: GasQuoteConfig;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`gas-quote-feeder: ${err.message}\n`);
  process.exit(1);
}

const logger = createLogger({ name: 'gas-quote-feeder', level: config.LOG_LEVEL });

await runService({
  name: 'gas-quote-feeder',
  logger,
  async start() {
    const clock = () => Date.now();
    const registry = createChainRegistry();
    const kv = createKvStore({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger });
    if (kv.kind === 'memory')
      logger.warn(
        'REDIS_URL not set: the feeder writes to its own process memory, which no API replica reads',
      );
    const store = createPriceStore(kv, {
      maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
      clock,
      registry,
    });
    const params = createPricingParams(registry, {
      redeemGas: config.redeemGas,
      adjustmentBps: config.feeAdjustmentBps,
      defaultAdjustmentBps: config.FEE_ADJUSTMENT_BPS,
    });
    const metrics = createMetrics({ prefix: 'gas_feeder_' });
    const cycles = new Counter({
      name: 'gas_feeder_cycles_total',
      help: 'Feeder cycles by result: wrote (held the lock and stored prices), skipped (lock held elsewhere), failed',
      labelNames: ['result'],
      registers: [metrics.registry],
    });
    const lastWrite = new Gauge({
      name: 'gas_feeder_last_write_timestamp_seconds',
      help: 'UNIX time of the last cycle that stored prices',
      registers: [metrics.registry],
    });
    const sourceFailures = new Counter({
      name: 'gas_feeder_gas_source_failures_total',
      help: 'Gas price fetches that failed, by domain',
      labelNames: ['domain'],
      registers: [metrics.registry],
    });
    const onCycle = (outcome: RefreshReport | Error) => {
      if (outcome instanceof Error) return cycles.inc({ result: 'failed' });
      cycles.inc({ result: outcome.wrote ? 'wrote' : 'skipped' });
      if (outcome.wrote) lastWrite.set(clock() / 1000);
      for (const domain of outcome.gasFailed) sourceFailures.inc({ domain: String(domain) });
    };
    const feeder = buildFeeder({ config, registry, store, kv, params, logger, clock, onCycle });
    feeder.start(config.FEEDER_INTERVAL_SECONDS * 1000);

    const app = express();
    app.get('/health', (_req, res) => {
      res.json({
        status: 'ok',
        priceSource: config.priceSource,
        snapshot: config.priceSource === 'snapshot',
      });
    });
    app.get('/metrics', metricsHandler(metrics.registry));
    const server = createEdgeServer(app, { logger, readyPath: null });
    const port = await listen(server, config.FEEDER_PORT);
    logger.info(
      { port, priceSource: config.priceSource, chains: [...config.rpcUrls.keys()] },
      'gas-quote-feeder running',
    );
    return {
      server,
      async close() {
        await feeder.stop();
        await kv.close();
      },
    };
  },
}).catch((err: unknown) => {
  logger.fatal({ err }, 'gas-quote-feeder failed to start');
  logger.flush();
  process.exit(1);
});
