/**
 * Admission of WebSocket upgrades on `/subscribe` (README.md "Configuration"): an upgrade counts
 * against its client's HTTP rate limit (the same key, limit and store as the express middleware),
 * and each client address may hold at most WS_MAX_CONNECTIONS_PER_IP open connections. A refusal
 * is a 429 RFC 9457 problem with `Retry-After`, written to the raw socket (no express on this path).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problem } from '@ctss/domain-types';
import {
  clientAddress,
  clientKey,
  compileTrustProxy,
  type RateLimiter,
  type TrustProxyFn,
} from '@ctss/server-kit';

/** `Retry-After` of a refusal for too many open connections, seconds (connections close at any time). */
const WS_CAP_RETRY_AFTER_SECONDS = 10;

/** Options of {@link createUpgradeAdmission}. */
export interface UpgradeAdmissionOptions {
  /** The app's rate limiter (its `consume` counts the upgrade). */
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** Express `trust proxy` (TRUST_PROXY): the client address is derived as express derives `req.ip`. */
  readonly trustProxy: boolean | number | string;
  /** Open WebSocket connections allowed per client address (WS_MAX_CONNECTIONS_PER_IP). */
  readonly maxConnectionsPerIp: number;
}

/** A refused upgrade: what to write back. */
export interface UpgradeRefusal {
  readonly status: 429;
  readonly code: 'RATE_LIMITED';
  readonly detail: string;
  readonly retryAfterSeconds: number;
}

/** Decides on upgrades and tracks the open connections of each client address. */
export interface UpgradeAdmission {
  /**
   * Admits `req` or says why not. An admitted upgrade holds one of its address's connection
   * slots until `socket` closes (handshake failure included). Never rejects: with Redis away the
   * rate limit counts in process memory.
   */
  admit(req: IncomingMessage, socket: Duplex): Promise<UpgradeRefusal | undefined>;
  /** Open (or opening) connections of the address key `ip:<address>`, for tests and metrics. */
  openConnections(key: string): number;
}

/** Builds an {@link UpgradeAdmission}. */
export function createUpgradeAdmission(opts: UpgradeAdmissionOptions): UpgradeAdmission {
  const trust: TrustProxyFn = compileTrustProxy(opts.trustProxy);
  const open = new Map<string, number>();

  function hold(key: string, socket: Duplex): void {
    open.set(key, (open.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    };
    socket.once('close', release);
    if (socket.destroyed) release();
  }

  return {
    async admit(req, socket) {
      const ip = clientAddress(req, trust);
      const key = clientKey(ip);
      if ((open.get(key) ?? 0) >= opts.maxConnectionsPerIp) {
        return {
          status: 429,
          code: 'RATE_LIMITED',
          detail: `at most ${opts.maxConnectionsPerIp} open WebSocket connections per client`,
          retryAfterSeconds: WS_CAP_RETRY_AFTER_SECONDS,
        };
      }
      // Held before the rate-limit round trip, so concurrent upgrades cannot all pass the cap.
      hold(key, socket);
      const decision = await opts.rateLimiter.consume({ headers: req.headers, ip });
      if (!decision.allowed) {
        return {
          status: 429,
          code: 'RATE_LIMITED',
          detail: 'too many requests; retry after the window resets',
          retryAfterSeconds: decision.retryAfterSeconds,
        };
      }
      return undefined;
    },
    openConnections: (key) => open.get(key) ?? 0,
  };
}

/** Writes `refusal` as an HTTP/1.1 problem response on the raw upgrade socket and ends it. */
export function writeRefusal(socket: Duplex, refusal: UpgradeRefusal): void {
  const body = JSON.stringify(problem(refusal.status, refusal.code, refusal.detail));
  socket.end(
    `HTTP/1.1 429 Too Many Requests\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Retry-After: ${refusal.retryAfterSeconds}\r\nConnection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
