/**
 * The chain client of one indexed chain: viem over its RPC URLs with the `fallback` transport
 * (a failed request goes to the next URL; the list is retried with backoff on 429, 5xx and
 * timeouts), and
 * `eth_getLogs` over a block range that splits the range when the node says it is too large
 * (docs/indexer.md "RPC faults"). Any other error propagates: the caller retries the same range
 * later and never skips a block.
 */
import { createPublicClient, fallback, http, type Log, type PublicClient } from 'viem';
import type { ChainConfig } from './config.js';

/**
 * Requests sent together in one JSON-RPC batch (an array body) by the receipts and blocks client:
 * the receipts and blocks of a step go out in a few HTTP requests instead of one each
 * (https://viem.sh/docs/clients/transports/http#batch). Providers accept batches of 100 or more.
 */
export const RPC_BATCH_SIZE = 100;

/**
 * A viem public client over the chain's RPC URLs (https://viem.sh/docs/clients/transports/fallback).
 *
 * @param retryCount retries of the whole URL list, with exponential backoff from 150 ms (the
 *   inner transports' own retries are turned off by `fallback`); 0 for `eth_getLogs`, whose
 *   "range too large" answer must reach the splitter at once. The client with retries batches
 *   its requests ({@link RPC_BATCH_SIZE}); the `eth_getLogs` one sends each alone.
 */
export function createChainClient(chain: ChainConfig, retryCount = 5): PublicClient {
  const batch = retryCount > 0 ? { batchSize: RPC_BATCH_SIZE } : false;
  return createPublicClient({
    transport: fallback(
      chain.rpcUrls.map((url) => http(url, { timeout: chain.rpcTimeoutMs, batch })),
      { retryCount, retryDelay: 150 },
    ),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RANGE_TOO_LARGE =
  /range|too many|more than \d+ (results|logs)|limit exceeded|response size|-32005|query timeout/i;

/** Whether an RPC error asks for a smaller `eth_getLogs` range. */
function isRangeTooLarge(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const e = current as {
      name?: string;
      message?: string;
      details?: string;
      code?: number;
      cause?: unknown;
    };
    // An answer larger than viem's response limit (10 MB) also needs a smaller range.
    if (e.code === -32005 || e.name === 'ResponseBodyTooLargeError') return true;
    if (RANGE_TOO_LARGE.test(`${e.details ?? ''} ${e.message ?? ''}`)) return true;
    current = e.cause;
  }
  return false;
}

/**
 * `eth_getLogs` of `addresses` for any of `topic0s` over [from, to], halving the range on a
 * "range too large" answer down to one block, and retrying any other error up to `retries`
 * times with exponential backoff from 150 ms. Use a client without its own retries
 * ({@link createChainClient} with 0).
 *
 * @throws the RPC error when a single block is still "too large", or when retries run out.
 */
export async function getLogsSplitting(
  client: PublicClient,
  addresses: readonly `0x${string}`[],
  topic0s: readonly `0x${string}`[],
  from: bigint,
  to: bigint,
  retries = 5,
): Promise<Log[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getLogsOnce(client, addresses, topic0s, from, to, retries);
    } catch (error) {
      if (isRangeTooLarge(error) || attempt >= retries) throw error;
      await sleep(150 * 2 ** attempt);
    }
  }
}

async function getLogsOnce(
  client: PublicClient,
  addresses: readonly `0x${string}`[],
  topic0s: readonly `0x${string}`[],
  from: bigint,
  to: bigint,
  retries: number,
): Promise<Log[]> {
  try {
    return await client
      .request({
        method: 'eth_getLogs',
        params: [
          {
            address: [...addresses],
            topics: [[...topic0s]],
            fromBlock: `0x${from.toString(16)}`,
            toBlock: `0x${to.toString(16)}`,
          },
        ],
      })
      .then((logs) => logs.map(normalizeLog));
  } catch (error) {
    if (from >= to || !isRangeTooLarge(error)) throw error;
    const mid = from + (to - from) / 2n;
    const left = await getLogsSplitting(client, addresses, topic0s, from, mid, retries);
    const right = await getLogsSplitting(client, addresses, topic0s, mid + 1n, to, retries);
    return [...left, ...right];
  }
}

type RpcLog = {
  address: `0x${string}`;
  topics: `0x${string}`[];
  data: `0x${string}`;
  blockNumber: `0x${string}` | null;
  blockHash: `0x${string}` | null;
  transactionHash: `0x${string}` | null;
  logIndex: `0x${string}` | null;
  transactionIndex: `0x${string}` | null;
  removed?: boolean;
};

/** A raw RPC log with its quantities as numbers (viem's formatted `Log` shape). */
function normalizeLog(raw: unknown): Log {
  const log = raw as RpcLog;
  return {
    address: log.address,
    topics: log.topics as Log['topics'],
    data: log.data,
    blockNumber: log.blockNumber === null ? null : BigInt(log.blockNumber),
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    logIndex: log.logIndex === null ? null : Number(log.logIndex),
    transactionIndex: log.transactionIndex === null ? null : Number(log.transactionIndex),
    removed: log.removed ?? false,
  };
}
