/**
 * Connection limits of the HTTP servers (docs/operations.md "Connection limits"): how long a
 * client may take to send its headers and its whole request, how long and how often a keep-alive
 * connection is reused, and how many connections one process and one client address may hold.
 *
 * Three tiers of refusal, so a flood costs the flooder and not the other clients:
 * - below the caps a connection is served as usual;
 * - over a soft cap (the process's `maxConnections`, or `maxConnectionsPerAddress` for the peer's
 *   address) the connection is accepted only to answer its first request with a problem body
 *   (503 `SERVICE_UNAVAILABLE` or 429 `RATE_LIMITED`, `Retry-After`, `Connection: close`), and is
 *   destroyed after {@link REFUSED_GRACE_MS} if it sends nothing; at most
 *   `maxConnectionsPerAddress` refused connections of one address (of the whole process, for the
 *   process cap) wait for that answer at a time, and a refused connection beyond them is closed
 *   at accept, before the HTTP parser, a timer or a listener is set up for it (a flood's
 *   thousands of connections a second then cost an accept and a close each);
 * - at the hard cap (`hardMaxConnections`, Node's `server.maxConnections`) a new connection is
 *   closed at accept, before any byte is read.
 *
 * The per-address cap counts the socket's peer address (IPv6 by its /56, as the rate limit keys
 * clients), never `X-Forwarded-For`: a peer trusted by `trustProxy` (the ingress, which carries
 * many clients on its connections) counts only toward the process cap.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@ctss/domain-types';
import { clientKey, compileTrustProxy } from './client-address.js';

/** The limits of one server; every duration in seconds. */
export interface ConnectionLimits {
  /** Longest time from a request's first byte to the end of its headers (Node `headersTimeout`). */
  readonly headersTimeoutSeconds: number;
  /** Longest time from a request's first byte to the end of its body (Node `requestTimeout`). */
  readonly requestTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after this long (Node `keepAliveTimeout`). */
  readonly keepAliveTimeoutSeconds: number;
  /** Requests served on one connection before it is closed (`Connection: close`); 0 = no limit. */
  readonly maxRequestsPerSocket: number;
  /** Open connections of the process over which a new one gets a 503 problem (soft cap). */
  readonly maxConnections: number;
  /** Open connections of one peer address over which a new one gets a 429 problem (soft cap). */
  readonly maxConnectionsPerAddress: number;
  /** Open connections (refused ones included) at which a new one is closed at accept. */
  readonly hardMaxConnections: number;
  /** Express `trust proxy` (TRUST_PROXY): a trusted peer is exempt from the per-address cap. */
  readonly trustProxy: boolean | number | string;
}

/**
 * The defaults (docs/operations.md "Connection limits"): headers in 10 s and a whole request in
 * 30 s (an API behind an ingress, which buffers slow clients itself), keep-alive idle 65 s (longer
 * than ingress-nginx's and cloud load balancers' 60 s upstream idle timeout, so the proxy closes
 * first and never reuses a connection the pod is closing), 1000 requests per connection (a
 * keep-alive connection rotates, so new replicas get their share), 4096 connections per process,
 * 256 per client address, 8192 in all.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutSeconds: 10,
  requestTimeoutSeconds: 30,
  keepAliveTimeoutSeconds: 65,
  maxRequestsPerSocket: 1000,
  maxConnections: 4096,
  maxConnectionsPerAddress: 256,
  hardMaxConnections: 8192,
  trustProxy: false,
};

/** How long a connection refused over a soft cap may wait to send its first request, ms. */
export const REFUSED_GRACE_MS = 1000;

/** Seconds a refused client is told to wait (`Retry-After`). */
export const REFUSED_RETRY_AFTER_SECONDS = 1;

/** How often Node checks the headers and request timeouts, ms (its default is 30 000). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** Why a connection was refused: over the process's soft cap, its address's, or at the hard cap. */
export type RefusalReason = 'process' | 'address' | 'hard';

/** The problem a refused connection's first request is answered with. */
export interface ConnectionRefusal {
  readonly reason: Exclude<RefusalReason, 'hard'>;
  readonly status: 429 | 503;
  readonly code: ErrorCode;
  readonly detail: string;
  /**
   * False when as many refused connections of the same address (of the process, for the process
   * cap) already wait for their answer as the per-address cap: close this one at accept instead.
   */
  readonly answered: boolean;
}

/** Counts open connections against the soft caps ({@link createConnectionGate}). */
export interface ConnectionGate {
  /**
   * Admits `socket` (it then holds a slot of the process and of its address until it closes) or
   * returns the refusal to answer it with (it then holds no slot; an answered refusal holds a
   * place among its address's refusals waiting for their answer until it closes).
   */
  admit(socket: Socket): ConnectionRefusal | undefined;
  /** Admitted connections open now. */
  open(): number;
  /** Admitted connections open now from the address key of `address` (e.g. `127.0.0.1`). */
  openFrom(address: string): number;
}

/**
 * Creates the soft-cap counter of {@link ConnectionLimits}.
 * @throws TypeError (from proxy-addr) when `limits.trustProxy` names an address it cannot parse.
 */
export function createConnectionGate(limits: ConnectionLimits): ConnectionGate {
  const trust = compileTrustProxy(limits.trustProxy);
  const byAddress = new Map<string, number>();
  let open = 0;
  /** Answered refusals not closed yet, by address key ('' counts the process cap's). */
  const answering = new Map<string, number>();
  const keyOf = (address: string | undefined) => clientKey(address);
  const PROCESS = '';
  const release = (counts: Map<string, number>, key: string): void => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left <= 0) counts.delete(key);
    else counts.set(key, left);
  };
  /** Whether one more refusal on `key` may be answered; if so it holds a place until it closes. */
  const answer = (socket: Socket, key: string): boolean => {
    const waiting = answering.get(key) ?? 0;
    if (waiting >= limits.maxConnectionsPerAddress) return false;
    answering.set(key, waiting + 1);
    socket.once('close', () => release(answering, key));
    return true;
  };

  return {
    admit(socket) {
      const address = socket.remoteAddress;
      const exempt = address !== undefined && trust(address, 0);
      const key = keyOf(address);
      if (open >= limits.maxConnections) {
        return {
          reason: 'process',
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          detail: `this instance holds its maximum of ${limits.maxConnections} connections`,
          answered: answer(socket, PROCESS),
        };
      }
      if (!exempt && (byAddress.get(key) ?? 0) >= limits.maxConnectionsPerAddress) {
        return {
          reason: 'address',
          status: 429,
          code: 'RATE_LIMITED',
          detail: `at most ${limits.maxConnectionsPerAddress} open connections per client address`,
          answered: answer(socket, key),
        };
      }
      open += 1;
      if (!exempt) byAddress.set(key, (byAddress.get(key) ?? 0) + 1);
      socket.once('close', () => {
        open -= 1;
        if (!exempt) release(byAddress, key);
      });
      return undefined;
    },
    open: () => open,
    openFrom: (address) => byAddress.get(keyOf(address)) ?? 0,
  };
}

/**
 * Sets Node's timeouts and the hard cap of `server` from `limits` (http.Server `headersTimeout`,
 * `requestTimeout`, `keepAliveTimeout`, `maxRequestsPerSocket`, net.Server `maxConnections`).
 * Node answers an expired headers or request timeout through `clientError`
 * (`ERR_HTTP_REQUEST_TIMEOUT`); the server must have been created with
 * `connectionsCheckingInterval` {@link TIMEOUT_CHECK_INTERVAL_MS} for the check to run that often.
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutSeconds * 1000;
  server.requestTimeout = limits.requestTimeoutSeconds * 1000;
  server.keepAliveTimeout = limits.keepAliveTimeoutSeconds * 1000;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.maxConnections = limits.hardMaxConnections;
}
