/**
 * The WebSocket fan-out of `/subscribe` (docs/api.md "WebSocket subscribe"; docs/decisions.md
 * "D23. WebSocket behaviour"): on connect the latest `fees` and `tokenPrices` messages, then every
 * update the feeder publishes (through the KvStore pub/sub, so every replica fans out every
 * update). The client sends nothing; the server pings each interval and drops clients that did not
 * answer the previous ping (dead) or whose send buffer exceeds the limit (slow), without delaying
 * the others. Which upgrades reach the hub is decided by the feed router (router.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { KvStore, Logger } from '@ctss/server-kit';
import { WebSocket, WebSocketServer } from 'ws';
import { LATEST_KEYS, UPDATES_CHANNEL } from '../channels.js';
import type { GasQuoteMetrics } from '../metrics.js';

/** Close code sent to clients when the server shuts down (RFC 6455 "going away"). */
export const CLOSE_GOING_AWAY = 1001;

/** Options of {@link createSubscribeHub}. */
export interface SubscribeHubOptions {
  /** The latest messages (`get`) and the update channel (`subscribe`). */
  readonly kv: Pick<KvStore, 'get' | 'subscribe'>;
  readonly logger: Logger;
  readonly metrics: Pick<GasQuoteMetrics, 'wsClients' | 'wsDropped'>;
  /** A client whose unsent bytes exceed this is dropped. */
  readonly maxBufferedBytes: number;
  /** Ping interval; a client that missed the previous pong is dropped. */
  readonly pingIntervalMs: number;
}

/** The WebSocket side of the app. */
export interface SubscribeHub {
  /** Subscribes to the update channel and starts the pings. */
  start(): Promise<void>;
  /** Completes the WebSocket handshake of an admitted upgrade and serves the new client. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Connected clients. */
  clientCount(): number;
  /** Stops pings, unsubscribes, closes every client with 1001 and waits for them (bounded). */
  close(): Promise<void>;
}

interface Client extends WebSocket {
  isAlive?: boolean;
}

/** Builds a {@link SubscribeHub}. */
export function createSubscribeHub(opts: SubscribeHubOptions): SubscribeHub {
  const { kv, logger, metrics } = opts;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, clientTracking: true });
  let unsubscribe: (() => Promise<void>) | undefined;
  let pingTimer: NodeJS.Timeout | undefined;

  const updateGauge = () => metrics.wsClients.set(wss.clients.size);

  /**
   * Sends one text frame unless the client is backed up; a backed-up client is dropped. `message`
   * is UTF-8 bytes made once per message: ws writes a Buffer as is (no per-client encoding,
   * length scan or copy), and every client's frame shares it.
   */
  function deliver(ws: Client, message: Buffer): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > opts.maxBufferedBytes) {
      metrics.wsDropped.inc({ reason: 'slow' });
      logger.info({ bufferedAmount: ws.bufferedAmount }, 'dropping slow WebSocket client');
      ws.terminate();
      return;
    }
    ws.send(message, { binary: false });
  }

  function broadcast(message: string): void {
    if (wss.clients.size === 0) return;
    const bytes = Buffer.from(message, 'utf8');
    for (const ws of wss.clients) deliver(ws, bytes);
  }

  async function sendLatest(ws: Client): Promise<void> {
    for (const key of [LATEST_KEYS.fees, LATEST_KEYS.tokenPrices]) {
      const latest = await kv.get(key);
      if (latest !== null) deliver(ws, Buffer.from(latest, 'utf8'));
    }
  }

  wss.on('connection', (ws: Client) => {
    ws.isAlive = true;
    updateGauge();
    ws.on('pong', () => {
      ws.isAlive = true;
    });
    ws.on('error', (err) => logger.debug({ err }, 'WebSocket client error'));
    ws.on('close', updateGauge);
    sendLatest(ws).catch((err: unknown) =>
      logger.warn({ err }, 'could not send the latest snapshot'),
    );
  });

  return {
    async start() {
      unsubscribe = await kv.subscribe(UPDATES_CHANNEL, broadcast);
      pingTimer = setInterval(() => {
        for (const ws of wss.clients as Set<Client>) {
          if (ws.isAlive === false) {
            metrics.wsDropped.inc({ reason: 'dead' });
            ws.terminate();
            continue;
          }
          ws.isAlive = false;
          ws.ping();
        }
      }, opts.pingIntervalMs);
      pingTimer.unref();
    },
    accept(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    clientCount: () => wss.clients.size,
    async close() {
      if (pingTimer) clearInterval(pingTimer);
      await unsubscribe?.();
      const closed = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(CLOSE_GOING_AWAY, 'server shutting down');
            setTimeout(() => {
              ws.terminate();
              resolve();
            }, 2000).unref();
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      updateGauge();
    },
  };
}
