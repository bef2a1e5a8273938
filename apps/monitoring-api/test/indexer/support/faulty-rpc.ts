/**
 * A local HTTP proxy in front of an RPC node that injects the faults public RPCs show: 429, 5xx,
 * a JSON-RPC "range too large" error for `eth_getLogs` over more than `maxLogRange` blocks, and
 * requests left unanswered (timeouts).
 */
import { createServer, type Server } from 'node:http';

/** Fault kinds, injected in turn on every `every`-th request. */
export type Fault = '429' | '503' | 'timeout';

/** The proxy and its counters. */
export interface FaultyRpc {
  readonly url: string;
  /** Faults injected, by kind, plus `range` for rejected log ranges. */
  readonly injected: Record<Fault | 'range', number>;
  close(): Promise<void>;
}

/** Starts the proxy on `port` in front of `target`. */
export async function startFaultyRpc(
  port: number,
  target: string,
  options: { every: number; faults: readonly Fault[]; maxLogRange: number },
): Promise<FaultyRpc> {
  const injected: Record<Fault | 'range', number> = { '429': 0, '503': 0, timeout: 0, range: 0 };
  let count = 0;
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        count++;
        if (count % options.every === 0) {
          const fault = options.faults[(count / options.every) % options.faults.length]!;
          injected[fault]++;
          if (fault === 'timeout') {
            const end = () => res.destroy();
            hanging.add(end);
            setTimeout(() => {
              hanging.delete(end);
              end();
            }, 5_000);
            return;
          }
          res.writeHead(Number(fault), { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'injected' }));
          return;
        }
        const body = JSON.parse(text) as {
          id: number;
          method: string;
          params: { fromBlock: string; toBlock: string }[];
        };
        if (body.method === 'eth_getLogs') {
          const { fromBlock, toBlock } = body.params[0]!;
          if (Number(toBlock) - Number(fromBlock) + 1 > options.maxLogRange) {
            injected.range++;
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: body.id,
                error: {
                  code: -32005,
                  message: `query exceeds max block range ${options.maxLogRange}`,
                },
              }),
            );
            return;
          }
        }
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    injected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of hanging) end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
