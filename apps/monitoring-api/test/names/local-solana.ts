/**
 * A local Solana JSON-RPC endpoint (node http) answering `getAccountInfo` with base64 account
 * data in the shape of the Solana RPC (`{ context: { slot }, value: { data: [b64, 'base64'],
 * executable, lamports, owner, rentEpoch, space } | null }`). Accounts are set by the test.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64 } from '@scure/base';

/** A running local Solana RPC. */
export interface LocalSolana {
  url: string;
  /** Sets (or replaces) an account: its data and owning program. */
  setAccount(address: string, data: Uint8Array, owner: string): void;
  /** Number of getAccountInfo requests answered (to observe caching). */
  readonly calls: () => number;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startLocalSolana(): Promise<LocalSolana> {
  const accounts = new Map<string, { data: Uint8Array; owner: string }>();
  let calls = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: unknown;
        method: string;
        params: unknown[];
      };
      let reply: Record<string, unknown>;
      if (request.method === 'getAccountInfo') {
        calls += 1;
        const [address, options] = request.params as [string, { encoding?: string }];
        const account = accounts.get(address);
        reply =
          options.encoding !== 'base64'
            ? { error: { code: -32602, message: 'only base64 encoding is served' } }
            : {
                result: {
                  context: { slot: 1, apiVersion: '2.1.0' },
                  value: account
                    ? {
                        data: [base64.encode(account.data), 'base64'],
                        executable: false,
                        lamports: 1_000_000,
                        owner: account.owner,
                        rentEpoch: 0,
                        space: account.data.length,
                      }
                    : null,
                },
              };
      } else {
        reply = { error: { code: -32601, message: 'Method not found' } };
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setAccount(address, data, owner) {
      accounts.set(address, { data, owner });
    },
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((err) => (err ? reject(err) : resolve())),
      ),
  };
}
