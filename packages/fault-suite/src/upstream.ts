/**
 * One local HTTP server speaking every upstream protocol the price feeder uses, routed by path and
 * JSON-RPC method: EVM `eth_feeHistory` / `eth_gasPrice`, Solana `getRecentPrioritizationFees`,
 * Sui `suix_getReferenceGasPrice` (JSON-RPC 2.0 on POST /), Aptos `GET /v1/estimate_gas_price`,
 * Pyth Hermes `GET /v2/updates/price/latest` and CoinGecko `GET /api/v3/simple/price`
 * (apps/gas-quote-api README "Pricing"). Prices are published "now", so they stay fresh while
 * the feeder can store them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { PORTS } from './settings.js';

const GWEI = 1_000_000_000n;
const qty = (v: bigint) => `0x${v.toString(16)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const rpcMethods: Record<string, (params: unknown[]) => unknown> = {
  eth_feeHistory: (params) => {
    const count = Number(params[0] ?? 10);
    return {
      oldestBlock: qty(100n),
      baseFeePerGas: Array.from({ length: count + 1 }, () => qty(12n * GWEI)),
      gasUsedRatio: Array.from({ length: count }, () => 0.5),
      reward: Array.from({ length: count }, (_, i) => [qty(BigInt(i + 1) * GWEI)]),
    };
  },
  eth_gasPrice: () => qty(25n * GWEI),
  getRecentPrioritizationFees: () =>
    Array.from({ length: 10 }, (_, i) => ({ slot: 1000 + i, prioritizationFee: i * 100 })),
  suix_getReferenceGasPrice: () => '750',
};

function rpc(body: unknown): unknown {
  const call = body as { id?: unknown; method?: string; params?: unknown[] };
  const fn = call.method ? rpcMethods[call.method] : undefined;
  if (!fn)
    return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } };
  return { jsonrpc: '2.0', id: call.id, result: fn(call.params ?? []) };
}

/** Hermes: every requested feed at $100 (mantissa, expo -8), confidence 0.1 %, published now. */
function hermes(ids: string[]): unknown {
  const publish = nowSeconds();
  const price = { price: '10000000000', conf: '10000000', expo: -8, publish_time: publish };
  return {
    binary: { encoding: 'hex', data: [] },
    parsed: ids.map((id) => ({ id: id.replace(/^0x/, ''), price, ema_price: price })),
  };
}

/** CoinGecko simple price: every requested coin at $1, updated now. */
function coingecko(ids: string[]): unknown {
  return Object.fromEntries(ids.map((id) => [id, { usd: 1, last_updated_at: nowSeconds() }]));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Starts the fake upstream on 127.0.0.1:PORTS.upstream; resolves with the server. */
export async function startFakeUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    readJson(req)
      .then((body) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (req.method === 'POST') return send(200, rpc(body));
        if (url.pathname === '/v1/estimate_gas_price')
          return send(200, {
            deprioritized_gas_estimate: 100,
            gas_estimate: 100,
            prioritized_gas_estimate: 150,
          });
        if (url.pathname === '/v2/updates/price/latest')
          return send(200, hermes(url.searchParams.getAll('ids[]')));
        if (url.pathname === '/api/v3/simple/price')
          return send(200, coingecko((url.searchParams.get('ids') ?? '').split(',')));
        return send(404, { message: 'not found' });
      })
      .catch(() => send(400, { message: 'bad request' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(PORTS.upstream, '127.0.0.1', () => resolve());
  });
  return server;
}

/** The gas quote API's upstream variables pointing at the fake upstream. */
export function upstreamEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PORTS.upstream}`;
  return {
    RPC_URL_ETHEREUM: url,
    RPC_URL_ARBITRUM: url,
    RPC_URL_SOLANA: url,
    RPC_URL_SUI: url,
    RPC_URL_APTOS: `${url}/v1`,
    PYTH_HERMES_URL: url,
    PRICE_FALLBACK_URL: url,
  };
}
