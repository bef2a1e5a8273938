/**
 * How an entry point (`src/bin/*.ts` of each app) runs its process: configuration validated once
 * at start (a ConfigError is one line on stderr and exit 1), one logger, and the service started
 * through {@link runService} (SIGTERM drains HTTP, then closes the rest); a failed start is logged
 * as fatal and exits 1 (docs/architecture.md "Services and processes").
 */
import type { LevelWithSilent } from 'pino';
import { ConfigError } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { runService, type RunningService } from './lifecycle.js';

/**
 * Runs the process `name`: `loadConfig()` (a ConfigError exits 1 with `<name>: <message>` on
 * stderr), a logger at the configuration's LOG_LEVEL, then `start` under {@link runService}.
 *
 * @throws never for configuration and start-up failures: they exit the process with code 1 (an
 *         error of `loadConfig` other than a ConfigError is rethrown).
 */
export async function runProcess<C extends { readonly LOG_LEVEL: LevelWithSilent }>(
  name: string,
  loadConfig: () => C,
  start: (config: C, logger: Logger) => Promise<RunningService>,
): Promise<void> {
  let config: C;
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
