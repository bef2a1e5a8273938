/**
 * The gas quote API started as main.ts starts it (server-kit runService around
 * startGasQuoteService), so `shutdown` is the path SIGTERM takes; its configuration on a unique
 * store prefix, and the removal of that prefix afterwards.
 */
import { runService, type Logger } from '@ctss/server-kit';
import type { GasQuoteConfig } from '../../src/config.js';
import { startGasQuoteService } from '../../src/server.js';
import { cleanupKv, testConfig, testKv } from './app.js';

/** A service started by {@link startAsMain}. */
export interface MainService {
  /** The port the API listens on. */
  readonly port: number;
  /** The shutdown SIGTERM calls: drains HTTP, then closes WebSockets and the store. */
  readonly shutdown: (reason: string) => Promise<void>;
}

/**
 * A test configuration for {@link startAsMain}: an ephemeral port, store keys under `prefix`,
 * Redis when REDIS_URL is set (the in-process store otherwise), and `env` on top.
 */
export function mainConfig(prefix: string, env: Record<string, string> = {}): GasQuoteConfig {
  return testConfig({
    PORT: '0',
    REDIS_PREFIX: prefix,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
}

/**
 * Starts the gas quote API on `config` as main.ts does. `drainTimeoutMs`: the longest HTTP drain
 * of `shutdown`, ms (runService's default, 10 000, when undefined).
 *
 * @throws whatever startGasQuoteService throws (bad config, the port taken).
 */
export async function startAsMain(
  config: GasQuoteConfig,
  logger: Logger,
  drainTimeoutMs?: number,
): Promise<MainService> {
  let port = 0;
  const { shutdown } = await runService({
    name: 'gas-quote-api',
    logger,
    drainTimeoutMs,
    start: async () => {
      const started = await startGasQuoteService(config, logger);
      port = started.port;
      return started;
    },
  });
  return { port, shutdown };
}

/** Deletes every store key under `prefix` (Redis when REDIS_URL is set). */
export async function removePrefix(prefix: string): Promise<void> {
  const kv = testKv(prefix);
  await cleanupKv(kv, prefix);
  await kv.close();
}
