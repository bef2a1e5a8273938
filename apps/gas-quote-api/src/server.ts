/**
 * Wires the running service from configuration: store, signers, the services (deps.ts), the route
 * table (app.ts), in-process feeder (when configured; always with the bundled snapshot), one HTTP
 * server for HTTP and WebSocket upgrades, kept current from the feeder's updates. Used by
 * src/bin/main.ts through server-kit `runService`, and by the shutdown test the same way.
 */
import type { Server } from 'node:http';
import {
  connectionLimitsFromConfig,
  connectionMetricHooks,
  createEdgeServer,
  listen,
  onDrainStart,
  startMetricsServer,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { createApp, type GasQuoteApp } from './app.js';
import { UPDATES_CHANNEL } from './channels.js';
import type { Clock } from './clock.js';
import type { GasQuoteConfig } from './config.js';
import { buildAppDeps, type AppDeps } from './deps.js';
import { SUBSCRIBE_PATH } from './feed/router.js';
import { buildFeeder } from './feeder/build.js';
import type { Feeder } from './feeder/feeder.js';
import { createGasQuoteMetrics } from './metrics.js';
import { loadSigners } from './quotes/signers.js';
import { openStores } from './stores.js';

/**
 * Connects the app to `server` and to the feeder's updates (docs/architecture.md "Price path"):
 * keeps the in-process prices current from the update messages (PriceStore.watch), starts the
 * WebSocket hub's fan-out and pings, and hands the server's `upgrade` events to `gas.onUpgrade`.
 *
 * @returns the detach: takes no more upgrades, closes WebSockets (code 1001) and stops the price
 *   refresh; safe to call more than once. The caller owns and closes the kv store and the server.
 * @throws when the store refuses the subscriptions.
 */
export async function attachApp(
  server: Server,
  gas: Pick<GasQuoteApp, 'onUpgrade'>,
  deps: Pick<AppDeps, 'priceStore' | 'subscribeHub' | 'logger'>,
): Promise<() => Promise<void>> {
  let stopWatching: (() => Promise<void>) | undefined = await deps.priceStore.watch(
    UPDATES_CHANNEL,
    (err) => deps.logger.warn({ err }, 'refreshing the in-process prices failed'),
  );
  await deps.subscribeHub.start();
  server.on('upgrade', gas.onUpgrade);
  return async () => {
    server.off('upgrade', gas.onUpgrade);
    await deps.subscribeHub.close();
    await stopWatching?.();
    stopWatching = undefined;
  };
}

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
  const deps = buildAppDeps({
    config,
    kv,
    priceStore,
    clock,
    signers,
    logger,
    metrics,
    registry,
  });
  const gas = createApp(deps);

  let feeder: Feeder | undefined;
  if (config.feederInProcess) {
    feeder = buildFeeder({
      config,
      registry,
      store: priceStore,
      kv,
      params: deps.params,
      logger,
      clock,
    });
    await feeder.refresh();
    feeder.start(config.FEEDER_INTERVAL_SECONDS * 1000);
  }

  const server = createEdgeServer(gas.app, {
    logger,
    upgradePaths: [SUBSCRIBE_PATH],
    limits: connectionLimitsFromConfig(config),
    ...connectionMetricHooks(metrics),
  });
  const detach = await attachApp(server, gas, deps);
  // WebSockets hold their sockets open, so HTTP could never drain: close them (1001) as soon as
  // the drain starts.
  onDrainStart(server, () => {
    detach().catch((err: unknown) => logger.error({ err }, 'closing WebSockets failed'));
  });
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
      await detach();
      await feeder?.stop();
      await kv.close();
    },
  };
}
