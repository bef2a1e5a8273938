/**
 * Routing of HTTP upgrades (docs/api.md "WebSocket subscribe"): `/subscribe` is the only
 * WebSocket endpoint; a browser Origin must be allowed (CORS_ORIGINS; CORS does not cover
 * WebSockets), and the upgrade must pass admission (rate limit and per-address cap) before the
 * hub completes the handshake. Refusals are RFC 9457 problems written to the raw socket.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { endSocketWithProblem, requestPathname, type Logger } from '@ctss/server-kit';
import { writeRefusal, type UpgradeAdmission } from './admission.js';

/** Path of the WebSocket endpoint. */
export const SUBSCRIBE_PATH = '/subscribe';

/** A listener of the HTTP server's `upgrade` event. */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Options of {@link subscribeUpgradeHandler}. */
export interface SubscribeUpgradeOptions {
  /** Browser origins allowed to connect (CORS_ORIGINS); `*` allows any. */
  readonly allowedOrigins: readonly string[];
  /** Rate limit and per-address cap of upgrades; absent admits every upgrade. */
  readonly admission?: UpgradeAdmission | undefined;
  readonly logger: Logger;
}

/**
 * The `upgrade` listener of the app: an unparsable target is 400 BAD_REQUEST, another path 404
 * NOT_FOUND, an Origin header that is present and not allowed 403 FORBIDDEN, a refused admission
 * 429 RATE_LIMITED with Retry-After; an admitted upgrade is handed to `accept` (the hub).
 */
export function subscribeUpgradeHandler(
  opts: SubscribeUpgradeOptions,
  accept: UpgradeListener,
): UpgradeListener {
  const { logger } = opts;
  const anyOrigin = opts.allowedOrigins.includes('*');

  /** Completes the handshake once {@link SubscribeUpgradeOptions.admission} admits the upgrade. */
  function admitAndUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const upgrade = () => accept(req, socket, head);
    if (!opts.admission) return upgrade();
    opts.admission.admit(req, socket).then(
      (refusal) => {
        if (socket.destroyed) return;
        if (refusal) writeRefusal(socket, refusal);
        else upgrade();
      },
      (err: unknown) => {
        logger.warn({ err }, 'WebSocket admission failed');
        socket.destroy();
      },
    );
  }

  return (req, socket, head) => {
    const path = requestPathname(req.url);
    if (path === undefined) {
      endSocketWithProblem(socket, 400, 'BAD_REQUEST', 'the request target is not a valid URL');
      return;
    }
    if (path !== SUBSCRIBE_PATH) {
      endSocketWithProblem(socket, 404, 'NOT_FOUND', `no WebSocket endpoint at ${path}`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !anyOrigin && !opts.allowedOrigins.includes(origin)) {
      endSocketWithProblem(socket, 403, 'FORBIDDEN', 'this Origin may not open a WebSocket');
      return;
    }
    admitAndUpgrade(req, socket, head);
  };
}
