/**
 * One structured log line per finished request, written only when the logger's level lets it
 * through (2xx/3xx info, 4xx and 503 warn, other 5xx error). Replaces pino-http, whose per-request child logger
 * serialized and redacted every request's headers even when nothing was logged (a quarter to a
 * half of the throughput of a small endpoint, measured in packages/bench/FINDINGS.md).
 */
import type { RequestHandler } from 'express';
import type { Logger } from './logger.js';

/** Paths not logged at info (probes and scrapes would drown the log). */
const QUIET_PATHS = new Set(['/health', '/ready', '/metrics']);

/**
 * The log level of a response status. A 503 is a retryable answer during a backend outage, which
 * is logged once where it is detected (docs/operations.md): at error level, every request of the
 * outage would bury that line.
 */
function levelOf(status: number): 'info' | 'warn' | 'error' {
  if (status === 503) return 'warn';
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

/** Logs `{ req: { method, url }, res: { statusCode }, responseTime }` (ms) per request. */
export function requestLogMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const level = levelOf(res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      if (level === 'info' && QUIET_PATHS.has(req.path)) return;
      logger[level](
        {
          req: { method: req.method, url: req.originalUrl, remoteAddress: req.ip },
          res: { statusCode: res.statusCode },
          responseTime: Math.round((performance.now() - started) * 10) / 10,
        },
        'request completed',
      );
    });
    next();
  };
}
