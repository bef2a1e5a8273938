/**
 * Which errors of node-postgres and pg-pool mean "the database is unavailable" (a retryable 503
 * DEPENDENCY_UNAVAILABLE, apps/monitoring-api/README.md "Database outages") rather than a bug (500), and which of those also mean
 * the connection is gone. SQLSTATE codes: PostgreSQL manual, appendix A "PostgreSQL Error Codes".
 */
import { DependencyUnavailableError, type HttpProblem } from '@ctss/server-kit';

/** The dependency name in the problem detail (never the URL). */
export const DATABASE = 'database';

/** Socket errors of Node's `net` and DNS that mean the server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean the server or the session went away: class 08 (connection exception) and
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting
 * down, in recovery).
 */
const LINK_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/**
 * SQLSTATEs of a live server that cannot serve the statement now: 57014 query_canceled (the
 * statement timeout of a too slow query) and 53300 too_many_connections.
 */
const BUSY_SQLSTATES = new Set(['57014', '53300']);

/**
 * Messages of node-postgres (lib/client.js: connection loss, connect and read timeouts, a
 * client used after its connection failed).
 */
const LINK_MESSAGES = [
  'Connection terminated',
  'timeout expired',
  'Query read timeout',
  'is not queryable',
];

/** pg-pool's error when no connection of a busy pool came free within `connectionTimeoutMillis`. */
const ACQUIRE_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * SQLSTATEs of a server that refuses this process's credentials: 28P01 invalid_password, 28000
 * invalid_authorization_specification (no pg_hba.conf entry, unknown role).
 */
const CREDENTIAL_SQLSTATES = new Set(['28P01', '28000']);

function fields(err: unknown): { code: unknown; message: string; errors: unknown } {
  if (typeof err !== 'object' || err === null) return { code: undefined, message: '', errors: [] };
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  return {
    code: e.code,
    message: typeof e.message === 'string' ? e.message : '',
    errors: e.errors,
  };
}

/**
 * Whether `err` means the connection to the server is lost or could not be made: socket errors,
 * connect and read timeouts, "Connection terminated", SQLSTATE class 08 and 57P01-57P03. Node's
 * `AggregateError` (one error per address tried) counts when any of its errors does. Such errors
 * count towards the circuit breaker (db/circuit-breaker.ts); a busy pool or a slow statement
 * does not.
 */
export function isConnectionLost(err: unknown): boolean {
  const { code, message, errors } = fields(err);
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || LINK_SQLSTATE.test(code)))
    return true;
  if (LINK_MESSAGES.some((text) => message.includes(text))) return true;
  return Array.isArray(errors) && errors.some(isConnectionLost);
}

/**
 * Whether `err` means the server refused this process's credentials (wrong password or role in
 * DATABASE_URL: a configuration error of this replica, not an outage): SQLSTATE 28P01 or 28000,
 * on the error or any error it aggregates.
 */
export function isCredentialsRefused(err: unknown): boolean {
  const { code, errors } = fields(err);
  if (typeof code === 'string' && CREDENTIAL_SQLSTATES.has(code)) return true;
  return Array.isArray(errors) && errors.some(isCredentialsRefused);
}

/**
 * Whether `err` means the database cannot serve the request now but may shortly: a lost
 * connection ({@link isConnectionLost}), refused credentials ({@link isCredentialsRefused}: 503,
 * not a 500 per request, while the deployment is fixed), the pool's acquire timeout (the pool is
 * busy), or a statement cancelled by the statement timeout or refused for too many connections.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isConnectionLost(err) || isCredentialsRefused(err)) return true;
  const { code, message } = fields(err);
  if (typeof code === 'string' && BUSY_SQLSTATES.has(code)) return true;
  return message.includes(ACQUIRE_TIMEOUT_MESSAGE);
}

/**
 * The app's problem classifier (server-kit `ProblemClassifier`): "database unavailable" errors
 * become 503 DEPENDENCY_UNAVAILABLE `database` with `Retry-After: 1`; anything else is left to
 * the default mapping.
 */
export function classifyDatabaseError(err: unknown): HttpProblem | undefined {
  return isDatabaseUnavailable(err) ? new DependencyUnavailableError(DATABASE) : undefined;
}
