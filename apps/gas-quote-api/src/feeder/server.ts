/**
 * Wires the price feeder process (its own Deployment in production; docs/architecture.md
 * "Price path"): refreshes gas and token prices every FEEDER_INTERVAL_SECONDS into the shared
 * store (Redis), holding the single-writer lock, and publishes the `fees` and `tokenPrices`
 * messages. Serves `GET /health` and `GET /metrics` on FEEDER_PORT for its probes. Its close
 * stops the cycle, releases the lock and closes Redis.
 */
import {
  createEdgeServer,
  listen,
  metricsHandler,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import express from 'express';
import type { Clock } from '../clock.js';
import type { GasQuoteConfig } from '../config.js';
import { pricingParamsFromConfig } from '../pricing/params.js';
import { openStores } from '../stores.js';
import { buildFeeder } from './build.js';
import { createFeederMetrics } from './metrics.js';

/**
 * Starts the feeder and its probe server on `config.FEEDER_PORT`.
 * @throws when the port is taken.
 */
export async function startFeederService(
  config: GasQuoteConfig,
  logger: Logger,
  clock: Clock = Date.now,
): Promise<RunningService> {
  const { registry, kv, priceStore: store } = openStores(config, logger, clock);
  if (kv.kind === 'memory')
    logger.warn(
      'REDIS_URL not set: the feeder writes to its own process memory, which no API replica reads',
    );
  const params = pricingParamsFromConfig(registry, config);
  const metrics = createFeederMetrics(clock);
  const feeder = buildFeeder({
    config,
    registry,
    store,
    kv,
    params,
    logger,
    clock,
    onCycle: metrics.onCycle,
  });
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
}
