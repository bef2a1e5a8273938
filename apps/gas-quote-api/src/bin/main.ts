/**
 * Gas Quote API entry point: reads config, starts the service (HTTP and WebSocket on one port,
 * in-process feeder with the bundled snapshot), and shuts down gracefully on SIGTERM through
 * server-kit runService: HTTP drained, WebSockets closed with 1001, feeder stopped, Redis closed.
 */
import { ConfigError, createLogger, runService } from '@ctss/server-kit';
import { loadConfig, type GasQuoteConfig } from '../config.js';
import { startGasQuoteService } from '../server.js';

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
  start: () => startGasQuoteService(config, logger),
}).catch((err: unknown) => {
  logger.fatal({ err }, 'gas-quote-api failed to start');
  logger.flush();
  process.exit(1);
});
