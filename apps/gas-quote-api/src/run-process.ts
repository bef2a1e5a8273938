/**
 * How an entry point of the Gas Quote API runs (src/bin): configuration validated once at start
 * (a ConfigError is one line on stderr and exit 1), one logger, and the service started through
 * server-kit `runService` (SIGTERM drains HTTP, then closes the rest); a failed start is logged
 * as fatal and exits 1.
 */
import {
  ConfigError,
  createLogger,
  runService,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { loadConfig, type GasQuoteConfig } from './config.js';

/**
 * Runs the process `name` with `start`.
 * @throws never: configuration and start-up failures exit the process with code 1.
 */
export async function runProcess(
  name: string,
  start: (config: GasQuoteConfig, logger: Logger) => Promise<RunningService>,
): Promise<void> {
  let config: GasQuoteConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${name}: ${err.message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ name, level: config.LOG_LEVEL });
  await runService({ name, logger, start: () => start(config, logger) }).catch((err: unknown) => {
    logger.fatal({ err }, `${name} failed to start`);
    logger.flush();
    process.exit(1);
  });
}
