/** Structured JSON logs (pino) with secret-bearing fields redacted. */
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/** Paths never written to logs: keys, credentials, connection strings with passwords. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.privateKey',
  '*.secretKey',
  '*.password',
  'config.SIGNER_ECDSA_PRIVATE_KEY',
  'config.SIGNER_ED25519_PRIVATE_KEY',
  'config.DATABASE_URL',
  'config.REDIS_URL',
];

/**
 * Creates the service logger. `level` defaults to `info` (`silent` is useful in tests).
 *
 * @example const logger = createLogger({ name: 'gas-quote-api', level: 'debug' });
 */
export function createLogger(opts: { name: string; level?: LevelWithSilent }): Logger {
  return pino({
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
