/**
 * Gas Quote API entry point: reads config, connects the store, listens (HTTP and WebSocket on one
 * port), runs the feeder in-process when configured (always with the bundled snapshot), and shuts
 * down gracefully on SIGTERM: HTTP drained, WebSockets closed with 1001, feeder stopped, Redis closed.
 */
import { createServer } from 'node:http';
import { createChainRegistry } from '@ctss/domain-types';
import { ConfigError, createKvStore, createLogger, listen, runService } from '@ctss/server-kit';
import { createApp } from './app.js';
import { loadConfig, type GasQuoteConfig } from './config.js';
import { buildFeeder } from './feeder/build.js';
import type { Feeder } from './feeder/feeder.js';
import { createGasQuoteMetrics } from './metrics.js';
import { createPriceStore } from './pricing/price-store.js';
import { loadSigners } from './signing/signers.js';

let config: GasQuoteConfig;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`gas-quote-api: ${err.message}\n`);
  process.exit(1);
}

const logger = createLogger({ name: 'gas-quote-api', level: config.LOG_LEVEL });

await runService({
  name: 'gas-quote-api',
  logger,
  async start() {
    const clock = () => Date.now();
    const registry = createChainRegistry();
    const kv = createKvStore({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX });
    const priceStore = createPriceStore(kv, { maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS, clock });
    const signers = loadSigners(config, logger);
    const gas = createApp({ config, kv, priceStore, clock, signers, logger, metrics: createGasQuoteMetrics(), registry });

    let feeder: Feeder | undefined;
    if (config.feederInProcess) {
      feeder = buildFeeder({ config, registry, store: priceStore, kv, params: gas.params, logger, clock });
      await feeder.refresh();
      feeder.start(config.FEEDER_INTERVAL_SECONDS * 1000);
    }

    const server = createServer(gas.app);
    // WebSockets hold their sockets open, so HTTP could never drain: close them (1001) as soon as
    // the server stops accepting, whichever path (signal or programmatic) starts the shutdown.
    const closeHttp = server.close.bind(server);
    server.close = (callback) => {
      gas.close().catch((err: unknown) => logger.error({ err }, 'closing WebSockets failed'));
      return closeHttp(callback);
    };
    await gas.attach(server);
    const port = await listen(server, config.PORT);
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
      async close() {
        await gas.close();
        await feeder?.stop();
        await kv.close();
      },
    };
  },
}).catch((err: unknown) => {
  logger.fatal({ err }, 'gas-quote-api failed to start');
  logger.flush();
  process.exit(1);
});
