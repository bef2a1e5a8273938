/**
 * Solana gas price from `getRecentPrioritizationFees` (micro-lamports per compute unit, per recent
 * slot) plus the base fee of 5000 lamports per signature spread over the redeem's compute units.
 *
 * Unit: micro-lamports per compute unit (decimals 15 = 9 lamport decimals + 6), so that
 * `gasPrice * redeemGas(compute units)` is the redeem cost in micro-lamports, consistent with the
 * fee formula of docs/api.md "Fee computation".
 */
import { z } from '@ctss/domain-types';
import { BPS_SCALE, ceilDiv } from '../../fixed-point.js';
import { rpcCall } from './http.js';
import type { GasSource } from './types.js';

/** Base fee per transaction signature, lamports (Solana runtime constant). */
const SOLANA_LAMPORTS_PER_SIGNATURE = 5000n;
/** Micro-lamports per lamport. */
const MICRO = 1_000_000n;

const PrioritizationFees = z.array(
  z.object({ slot: z.number(), prioritizationFee: z.number().int().nonnegative() }),
);

/** Options of {@link createSolanaGasSource}. */
export interface SolanaGasSourceOptions {
  readonly domain: number;
  readonly rpcUrl: string;
  /** Compute units of a redeem; spreads the signature base fee per compute unit. */
  readonly redeemComputeUnits: bigint;
  /** Signatures of a redeem transaction. */
  readonly signatures: bigint;
  /** Percentile of recent slots' priority fees to use (0..100). */
  readonly priorityPercentile: number;
  readonly multiplierBps: bigint;
  readonly timeoutMs: number;
}

/** Builds a {@link GasSource} for Solana (price in micro-lamports per CU, decimals 15). */
export function createSolanaGasSource(options: SolanaGasSourceOptions): GasSource {
  return {
    domain: options.domain,
    name: 'solana-rpc',
    async fetch() {
      const fees = await rpcCall(
        options.rpcUrl,
        'getRecentPrioritizationFees',
        [],
        PrioritizationFees,
        options.timeoutMs,
      );
      const sorted = fees
        .map((f) => BigInt(f.prioritizationFee))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const idx = Math.min(
        sorted.length - 1,
        Math.floor((sorted.length * options.priorityPercentile) / 100),
      );
      const priority = sorted.length === 0 ? 0n : sorted[Math.max(0, idx)]!;
      const base = ceilDiv(
        SOLANA_LAMPORTS_PER_SIGNATURE * options.signatures * MICRO,
        options.redeemComputeUnits,
      );
      return { price: ceilDiv((priority + base) * options.multiplierBps, BPS_SCALE), decimals: 15 };
    },
  };
}
