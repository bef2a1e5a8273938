/**
 * Local HTTP servers that speak the upstream protocols the feeder uses (JSON-RPC 2.0 for EVM,
 * Solana and Sui; REST for Aptos, Pyth Hermes and the CoinGecko-style fallback), so the feeder
 * is tested over real HTTP without reaching the internet.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '@ctss/server-kit';

/** One request as the fake server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

/** A reply: status and JSON body. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** A running fake upstream. */
export interface FakeUpstream {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Replaces the handler (e.g. to make the upstream fail). */
  setHandler(handler: (req: SeenRequest) => Reply): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Starts a fake upstream on 127.0.0.1, port 0. */
export async function startFakeUpstream(
  handler: (req: SeenRequest) => Reply,
): Promise<FakeUpstream> {
  let current = handler;
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    readBody(req)
      .then((body) => {
        const u = new URL(req.url ?? '/', 'http://localhost');
        const r: SeenRequest = {
          method: req.method ?? 'GET',
          path: u.pathname,
          query: u.searchParams,
          body,
        };
        seen.push(r);
        const reply = current(r);
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      })
      .catch(() => {
        res.writeHead(400).end();
      });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setHandler(h) {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON-RPC 2.0 handler from a method table; unknown methods get error -32601. */
export function jsonRpc(
  methods: Record<string, (params: unknown[]) => unknown>,
): (req: SeenRequest) => Reply {
  return (req) => {
    const call = req.body as { id: unknown; method: string; params?: unknown[] };
    const fn = methods[call.method];
    if (!fn)
      return {
        status: 200,
        body: { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } },
      };
    return { status: 200, body: { jsonrpc: '2.0', id: call.id, result: fn(call.params ?? []) } };
  };
}

/** `0x` hex of a bigint (JSON-RPC quantity). */
export const qty = (v: bigint) => `0x${v.toString(16)}`;
