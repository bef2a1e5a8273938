/**
 * Wires the running service from configuration: store, signers, app, in-process feeder (when
 * configured; always with the bundled snapshot), one HTTP server for HTTP and WebSocket. Used by
 * src/bin/main.ts through server-kit `runService`, and by the shutdown test the same way.
 */
import {
  createEdgeServer,
  listen,
  onDrainStart,
  startMetricsServer,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { createApp } from './app.js';
import type { Clock } from './clock.js';
import type { GasQuoteConfig } from './config.js';
import { SUBSCRIBE_PATH } from './feed/router.js';
import { buildFeeder } from './feeder/build.js';
import type { Feeder } from './feeder/feeder.js';
import { createGasQuoteMetrics } from './metrics.js';
import { loadSigners } from './quotes/signers.js';
import { openStores } from './stores.js';

/** The started service: what runService needs, plus the bound port. */
export interface StartedGasQuoteService extends RunningService {
  readonly port: number;
}

/**
 * Starts the Gas Quote API on `config.PORT` (0 picks a free port).
 * @throws when a signing key is malformed, the port is taken, or the first snapshot refresh fails.
 */
export async function startGasQuoteService(
  config: GasQuoteConfig,
  logger: Logger,
  clock: Clock = Date.now,
): Promise<StartedGasQuoteService> {
  const { registry, kv, priceStore } = openStores(config, logger, clock);
  const signers = loadSigners(config, logger);
  const metrics = createGasQuoteMetrics();
  const gas = createApp({
    config,
    kv,
    priceStore,
    clock,
    signers,
    logger,
    metrics,
    registry,
  });

  let feeder: Feeder | undefined;
  if (config.feederInProcess) {
    feeder = buildFeeder({
      config,
      registry,
      store: priceStore,
      kv,
      params: gas.params,
      logger,
      clock,
    });
    await feeder.refresh();
    feeder.start(config.FEEDER_INTERVAL_SECONDS * 1000);
  }

  const server = createEdgeServer(gas.app, { logger, upgradePaths: [SUBSCRIBE_PATH] });
  // WebSockets hold their sockets open, so HTTP could never drain: close them (1001) as soon as
  // the drain starts.
  onDrainStart(server, () => {
    gas.close().catch((err: unknown) => logger.error({ err }, 'closing WebSockets failed'));
  });
  await gas.attach(server);
  const port = await listen(server, config.PORT);
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : (await startMetricsServer(metrics.registry, config.METRICS_PORT, logger)).server;
  logger.info(
    {
      port,
      priceSource: config.priceSource,
      feederInProcess: config.feederInProcess,
      store: kv.kind,
      ecdsaSigner: signers.ecdsa.address,
      ed25519KeyId: signers.ed25519.keyId,
    },
    config.priceSource === 'snapshot'
      ? 'gas-quote-api listening; prices come from the BUNDLED SNAPSHOT (no RPC_URL_<DOMAIN> configured)'
      : 'gas-quote-api listening with live price sources',
  );
  return {
    server,
    metricsServer,
    port,
    async close() {
      await gas.close();
      await feeder?.stop();
      await kv.close();
    },
  };
}
