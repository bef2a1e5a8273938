/**
 * The HTTP server both services listen with, hardened so that no input can crash it or get an
 * answer that is not a problem body: Node's parser errors (`clientError`), upgrades on paths
 * without a WebSocket endpoint, CONNECT, unmet `Expect` and HTTP/1.1 without `Host` are answered
 * with RFC 9457 problem bodies, and every listener on the server runs guarded (a throw is logged
 * and becomes a 500 problem, never an uncaught exception). It enforces the connection limits of
 * connection-limits.ts (timeouts, caps per process and per client address) and tracks
 * connections so a shutdown can drain them cleanly (see {@link drainHttpServer}).
 */
import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problem, type ErrorCode } from '@ctss/domain-types';
import {
  DEFAULT_CONNECTION_LIMITS,
  REFUSED_GRACE_MS,
  REFUSED_RETRY_AFTER_SECONDS,
  TIMEOUT_CHECK_INTERVAL_MS,
  applyConnectionLimits,
  createConnectionGate,
  type ConnectionLimits,
  type ConnectionRefusal,
  type RefusalReason,
} from './connection-limits.js';
import type { Logger } from './logger.js';

/** Options of {@link createEdgeServer}. */
export interface EdgeServerOptions {
  readonly logger: Logger;
  /**
   * Paths whose upgrade requests are handed to the server's `upgrade` listeners (e.g.
   * `['/subscribe']`); an upgrade on any other path gets a 404 problem, an unparseable target 400.
   */
  readonly upgradePaths?: readonly string[];
  /** Readiness path answered 503 `SERVICE_UNAVAILABLE` once a drain started (default `/ready`); null: none. */
  readonly readyPath?: string | null;
  /** Timeouts and connection caps (connection-limits.ts); default {@link DEFAULT_CONNECTION_LIMITS}. */
  readonly limits?: ConnectionLimits;
  /**
   * Called for every connection refused (over a soft cap, or closed at the hard cap), e.g. to count
   * it in a metric; must not throw.
   */
  readonly onRefused?: (reason: RefusalReason) => void;
  /**
   * Called with +1 when a connection is admitted (not refused) and -1 when it closes: an
   * admitted-connections gauge.
   */
  readonly onOpenChange?: (delta: 1 | -1) => void;
}

/** Options of {@link drainHttpServer}. */
export interface DrainOptions {
  /** Longest drain, ms; connections still open then are destroyed. */
  readonly timeoutMs: number;
  /**
   * A keep-alive connection with no request in flight is closed once idle this long, ms (default
   * 1000): a client looping requests sends its next one within that time and gets it answered
   * with `Connection: close`, instead of racing the close with a request already on the wire.
   */
  readonly idleGraceMs?: number;
}

/** What a drain did. */
export interface DrainResult {
  /** Connections destroyed at the timeout (0 in a clean drain). */
  readonly forced: number;
  /** Duration of the drain, ms. */
  readonly durationMs: number;
}

interface SocketState {
  /** Responses on this connection that have not closed yet (several when pipelined). */
  readonly responses: Set<ServerResponse>;
  /** When the connection last became idle (connect or last response closed), ms (Date.now). */
  idleSince: number;
  /** Set when the connection is over a soft cap: its first request gets this problem. */
  readonly refusal?: ConnectionRefusal | undefined;
}

interface EdgeState {
  draining: boolean;
  readonly sockets: Map<Socket, SocketState>;
  readonly onDrain: (() => void)[];
}

/** Where {@link createEdgeServer} keeps a server's edge state: on the server object itself. */
const EDGE_STATE = Symbol('edgeState');

/** A server made by {@link createEdgeServer}, carrying its connection and drain state. */
type EdgeStateCarrier = Server & { [EDGE_STATE]?: EdgeState };

function edgeState(server: Server): EdgeState | undefined {
  return (server as EdgeStateCarrier)[EDGE_STATE];
}

/**
 * The path of a request target, or undefined when it cannot be parsed. Origin-form (`/a/b?q`) is
 * a path as written, so `//host/x` is not read as a network-path reference; absolute-form
 * (`http://host/x`) gives its path (RFC 9112 section 3.2). Never throws.
 */
export function requestPathname(target: string | undefined): string | undefined {
  const text = target ?? '/';
  try {
    return text.startsWith('/')
      ? new URL(`http://localhost${text}`).pathname
      : new URL(text).pathname;
  } catch {
    return undefined;
  }
}

/**
 * A complete HTTP/1.1 response with a problem body and `Connection: close`, as bytes to write to
 * a raw socket (RFC 9110 message syntax; the body as in `problem()` of domain-types).
 */
export function rawProblemResponse(
  status: number,
  code: ErrorCode,
  detail: string,
  headers: Record<string, string> = {},
): Buffer {
  const body = JSON.stringify(problem(status, code, detail));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

/**
 * Answers on a raw socket (after `clientError` or `upgrade`, where no response object exists)
 * when it is still writable, then ends it; the peer's remaining bytes are read and dropped, and
 * the socket is destroyed after a second if the peer does not close (Node docs, `'clientError'`).
 */
export function endSocketWithProblem(
  socket: Duplex,
  status: number,
  code: ErrorCode,
  detail: string,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable || socket.destroyed) {
    socket.destroy();
    return;
  }
  socket.on('error', () => undefined);
  socket.end(rawProblemResponse(status, code, detail, headers));
  socket.resume();
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Sends a problem body through a plain Node response object (answers given outside express);
 * `close` adds `Connection: close`.
 */
export function respondWithProblem(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  detail: string,
  close = false,
): void {
  const body = JSON.stringify(problem(status, code, detail));
  res.statusCode = status;
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  if (close) res.setHeader('Connection', 'close');
  res.end(body);
}

/** Node's parser and timeout errors as problem status, code and detail (llhttp error codes). */
function clientErrorProblem(err: NodeJS.ErrnoException): [number, ErrorCode, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'HEADERS_TOO_LARGE', 'request header fields are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'PAYLOAD_TOO_LARGE', 'chunk extensions are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'BAD_REQUEST', 'the request was not received in time'];
    default:
      return [400, 'BAD_REQUEST', `malformed HTTP request (${err.code ?? 'parse error'})`];
  }
}

/** How often a warning about refused connections may be logged, ms. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** Whether `path` names the readiness path (express matches case-insensitively, trailing slash allowed). */
function isPath(path: string | undefined, wanted: string): boolean {
  if (path === undefined) return false;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.toLowerCase() === wanted.toLowerCase();
}

/**
 * Creates the hardened HTTP server for `handler` (usually an express app); listen with
 * `listen()` of service.ts, attach WebSocket `upgrade` listeners as usual.
 *
 * - `clientError` (parse errors, oversized headers, timeouts): 400 `BAD_REQUEST`,
 *   431 `HEADERS_TOO_LARGE`, 413 `PAYLOAD_TOO_LARGE` or 408 problem with `Connection: close`,
 *   written only while the socket is writable and no response has begun; resets are dropped.
 * - `upgrade` on a path outside `upgradePaths`: 404 `NOT_FOUND`; unparseable target: 400
 *   `BAD_REQUEST`; while draining or with no listener attached: 503 `SERVICE_UNAVAILABLE`.
 * - `CONNECT`: 400; `Expect` other than `100-continue`: 417; HTTP/1.1 without `Host`: 400.
 * - Any listener that throws (request, upgrade, connect, expectation, clientError): logged at
 *   error level, 500 `INTERNAL` problem where an answer is still possible, else the socket is
 *   destroyed.
 * - `opts.limits` (connection-limits.ts): headers and request timeouts (408 problem), keep-alive
 *   idle time and requests per connection; a connection over the process's soft cap gets a 503
 *   `SERVICE_UNAVAILABLE` problem, over its address's a 429 `RATE_LIMITED` problem (both with
 *   `Retry-After` and `Connection: close`, on its first request or upgrade, and it is destroyed
 *   if it sends nothing within a second); beyond `maxConnectionsPerAddress` refusals of one
 *   address (of the process, for the process cap) waiting for that answer, a refused connection
 *   is closed at accept, before Node's HTTP connection listener runs; at the hard cap Node closes
 *   it at accept. Refusals are logged at warn level at most every 10 s.
 */
export function createEdgeServer(handler: RequestListener, opts: EdgeServerOptions): Server {
  const { logger } = opts;
  const upgradePaths = new Set(opts.upgradePaths ?? []);
  const readyPath = opts.readyPath === undefined ? '/ready' : opts.readyPath;
  const limits = opts.limits ?? DEFAULT_CONNECTION_LIMITS;
  // Node answers a missing Host with an empty 400 itself; the check below answers with a problem.
  const server = createServer({
    requireHostHeader: false,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
  });
  applyConnectionLimits(server, limits);
  const gate = createConnectionGate(limits);
  const state: EdgeState = {
    draining: false,
    sockets: new Map(),
    onDrain: [],
  };
  (server as EdgeStateCarrier)[EDGE_STATE] = state;

  // Refusals are counted through onRefused; the log says so at most every 10 s, with the counts.
  const refusedSince = new Map<RefusalReason, number>();
  let lastRefusalLog = 0;
  const refused = (reason: RefusalReason): void => {
    opts.onRefused?.(reason);
    refusedSince.set(reason, (refusedSince.get(reason) ?? 0) + 1);
    const now = Date.now();
    if (now - lastRefusalLog < REFUSAL_LOG_INTERVAL_MS) return;
    lastRefusalLog = now;
    logger.warn(
      { refused: Object.fromEntries(refusedSince), open: gate.open(), limits },
      'connections refused over the connection limits',
    );
    refusedSince.clear();
  };
  server.on('drop', () => refused('hard'));

  /**
   * Runs first for every accepted connection, before Node's HTTP connection listener (see the
   * `emit` wrapper below): a refusal beyond the ones answered at a time is closed here, so Node
   * never sets up its parser, timeouts and listeners for it. False when the socket was closed.
   */
  const gateConnection = (socket: Socket): boolean => {
    const refusal = gate.admit(socket);
    if (refusal && !refusal.answered) {
      refused(refusal.reason);
      socket.destroy();
      return false;
    }
    state.sockets.set(socket, { responses: new Set(), idleSince: Date.now(), refusal });
    socket.once('close', () => state.sockets.delete(socket));
    if (!refusal && opts.onOpenChange) {
      const change = opts.onOpenChange;
      change(1);
      socket.once('close', () => change(-1));
    }
    if (refusal) {
      refused(refusal.reason);
      // A refused connection that sends nothing gives its socket back soon.
      const timer = setTimeout(() => socket.destroy(), REFUSED_GRACE_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    }
    return true;
  };

  /** Counts the request on its connection and applies the drain rules; false when answered here. */
  const admit = (req: IncomingMessage, res: ServerResponse): boolean => {
    const socketState = state.sockets.get(req.socket);
    if (socketState) {
      socketState.responses.add(res);
      res.once('close', () => {
        socketState.responses.delete(res);
        socketState.idleSince = Date.now();
      });
    }
    const refusal = socketState?.refusal;
    if (refusal) {
      res.setHeader('Retry-After', String(REFUSED_RETRY_AFTER_SECONDS));
      respondWithProblem(res, refusal.status, refusal.code, refusal.detail, true);
      return false;
    }
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      respondWithProblem(res, 400, 'BAD_REQUEST', 'an HTTP/1.1 request needs a Host header', true);
      return false;
    }
    if (state.draining) {
      res.setHeader('Connection', 'close');
      if (
        readyPath !== null &&
        (req.method === 'GET' || req.method === 'HEAD') &&
        isPath(requestPathname(req.url), readyPath)
      ) {
        respondWithProblem(res, 503, 'SERVICE_UNAVAILABLE', 'the service is shutting down', true);
        return false;
      }
    }
    return true;
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (admit(req, res)) handler(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (!admit(req, res)) return;
    respondWithProblem(res, 417, 'BAD_REQUEST', 'only "Expect: 100-continue" is supported', true);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endSocketWithProblem(socket, 400, 'BAD_REQUEST', 'CONNECT is not supported');
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const responses = state.sockets.get(socket as Socket)?.responses ?? [];
    const begun = [...responses].some((res) => res.headersSent);
    if (err.code === 'ECONNRESET' || !socket.writable || begun) {
      socket.destroy();
      return;
    }
    const [status, code, detail] = clientErrorProblem(err);
    logger.debug({ code: err.code, status }, 'malformed HTTP request');
    endSocketWithProblem(socket, status, code, detail);
  });
  // Node emits `upgrade` only when a listener exists; this one makes every upgrade reach the
  // routing below, also on a service with no WebSocket endpoint.
  const routeUpgrades = (): void => undefined;
  server.on('upgrade', routeUpgrades);

  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  const guardedUpgrade = (args: unknown[]): boolean => {
    const [req, socket] = args as [IncomingMessage, Duplex];
    const refusal = state.sockets.get(socket as Socket)?.refusal;
    state.sockets.delete(socket as Socket);
    if (refusal) {
      endSocketWithProblem(socket, refusal.status, refusal.code, refusal.detail, {
        'Retry-After': String(REFUSED_RETRY_AFTER_SECONDS),
      });
      return true;
    }
    const path = requestPathname(req.url);
    if (path === undefined) {
      endSocketWithProblem(socket, 400, 'BAD_REQUEST', 'the request target is not a valid URL');
      return true;
    }
    if (!upgradePaths.has(path)) {
      endSocketWithProblem(socket, 404, 'NOT_FOUND', 'no upgrade endpoint at this path');
      return true;
    }
    if (state.draining || server.listenerCount('upgrade') <= 1) {
      endSocketWithProblem(socket, 503, 'SERVICE_UNAVAILABLE', 'not accepting connections', {
        'Retry-After': '1',
      });
      return true;
    }
    return emit('upgrade', ...args);
  };
  /** The answer after a listener threw, wherever one is still possible. */
  const recover = (event: string, args: unknown[], err: unknown): void => {
    logger.error({ err, event }, 'HTTP server listener failed');
    if (event === 'upgrade' || event === 'connect' || event === 'clientError') {
      endSocketWithProblem(args[1] as Duplex, 500, 'INTERNAL', 'internal error');
      return;
    }
    const res = args[1] as ServerResponse | undefined;
    if (!res) return;
    if (res.headersSent) res.destroy();
    else respondWithProblem(res, 500, 'INTERNAL', 'internal error', true);
  };
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'connection') {
      return gateConnection(args[0] as Socket) ? emit(event, ...args) : true;
    }
    if (
      event !== 'request' &&
      event !== 'upgrade' &&
      event !== 'connect' &&
      event !== 'clientError' &&
      event !== 'checkExpectation' &&
      event !== 'checkContinue'
    ) {
      return emit(event, ...args);
    }
    try {
      return event === 'upgrade' ? guardedUpgrade(args) : emit(event, ...args);
    } catch (err) {
      try {
        recover(event, args, err);
      } catch (again) {
        logger.error({ err: again }, 'answering after a listener failure failed');
      }
      return true;
    }
  }) as Server['emit'];
  return server;
}

/** True once a drain of `server` started (the server was made by {@link createEdgeServer}). */
export function isDraining(server: Server): boolean {
  return edgeState(server)?.draining ?? false;
}

/**
 * Registers `fn` to run when a drain of `server` starts (e.g. closing WebSockets with 1001, which
 * would otherwise hold their sockets open for the whole drain). Ignored for other servers.
 */
export function onDrainStart(server: Server, fn: () => void): void {
  edgeState(server)?.onDrain.push(fn);
}

/**
 * Drains `server` for a clean shutdown: stops accepting connections, marks every response not yet
 * begun and every later one `Connection: close` (so keep-alive clients reconnect elsewhere),
 * answers the readiness path 503, lets requests in flight finish, closes keep-alive connections
 * once idle for `idleGraceMs`, and destroys what is left after `timeoutMs`. For a server not made
 * by {@link createEdgeServer}: Node's `close()` and `closeIdleConnections()`, then the timeout.
 * Resolves when every connection is closed.
 */
export async function drainHttpServer(server: Server, opts: DrainOptions): Promise<DrainResult> {
  const started = Date.now();
  const state = edgeState(server);
  let forced = 0;
  if (!state) {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), opts.timeoutMs);
    await closed;
    clearTimeout(timer);
    return { forced, durationMs: Date.now() - started };
  }
  if (!state.draining) {
    state.draining = true;
    for (const { responses } of state.sockets.values()) {
      for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    for (const fn of state.onDrain.splice(0)) {
      try {
        fn();
      } catch {
        // A failing hook must not stop the drain; the hook logs its own errors.
      }
    }
  }
  // net.Server's close stops accepting without http.Server's immediate closeIdleConnections(),
  // which would reset a keep-alive connection whose next request is already on the wire.
  const closed = new Promise<void>((resolve) => {
    NetServer.prototype.close.call(server, () => resolve());
  });
  const grace = opts.idleGraceMs ?? 1000;
  const sweep = (): void => {
    const now = Date.now();
    for (const [socket, s] of state.sockets) {
      if (s.responses.size === 0 && now - s.idleSince >= grace) socket.destroy();
    }
  };
  sweep();
  const sweeper = setInterval(sweep, Math.max(10, Math.min(100, grace / 4)));
  const timeout = setTimeout(() => {
    for (const socket of state.sockets.keys()) {
      forced += 1;
      socket.destroy();
    }
    server.closeAllConnections();
  }, opts.timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(sweeper);
    clearTimeout(timeout);
  }
  return { forced, durationMs: Date.now() - started };
}
