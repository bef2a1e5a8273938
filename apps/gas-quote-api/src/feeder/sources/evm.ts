/**
 * EVM gas price through viem over a chain's JSON-RPC URL: fee-history based (EIP-1559), i.e. the
 * base fee of the next block plus a percentile of recent priority fees, times a multiplier;
 * `eth_gasPrice` when the node has no fee history (pre-London chains).
 */
import { createPublicClient, http } from 'viem';
import { BPS_SCALE, ceilDiv } from '../../fixed-point.js';
import type { GasSource } from './types.js';

/** Options of {@link createEvmGasSource}. */
export interface EvmGasSourceOptions {
  readonly domain: number;
  readonly rpcUrl: string;
  /** Multiplier on the gas price, basis points (10000 = 1.0). */
  readonly multiplierBps: bigint;
  /** Priority-fee percentile asked of eth_feeHistory (0..100). */
  readonly priorityPercentile: number;
  /** Blocks of fee history to read. */
  readonly blockCount: number;
  readonly timeoutMs: number;
}

/** Median of bigints (upper median for even counts); 0 for an empty list. */
function median(values: bigint[]): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Builds a {@link GasSource} for an EVM chain; prices are in wei per gas (decimals 18).
 * @throws (from fetch) when both eth_feeHistory and eth_gasPrice fail.
 */
export function createEvmGasSource(options: EvmGasSourceOptions): GasSource {
  const client = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
  });
  return {
    domain: options.domain,
    name: 'evm-rpc',
    async fetch() {
      let wei: bigint;
      try {
        const history = await client.getFeeHistory({
          blockCount: options.blockCount,
          rewardPercentiles: [options.priorityPercentile],
          blockTag: 'latest',
        });
        // baseFeePerGas has blockCount + 1 entries; the last is the next block's base fee.
        const nextBaseFee = history.baseFeePerGas.at(-1);
        if (nextBaseFee === undefined) throw new Error('fee history without base fee');
        const tips = (history.reward ?? []).map((r) => r[0] ?? 0n);
        wei = nextBaseFee + median(tips);
      } catch {
        wei = await client.getGasPrice();
      }
      return { price: ceilDiv(wei * options.multiplierBps, BPS_SCALE), decimals: 18 };
    },
  };
}
