/** Sui gas price from `suix_getReferenceGasPrice` (MIST per gas unit, decimals 9). */
import { z } from '@ctss/domain-types';
import { BPS_SCALE, ceilDiv } from '../../fixed-point.js';
import { rpcCall } from './http.js';
import type { GasSource } from './types.js';

const ReferenceGasPrice = z.union([z.string().regex(/^[0-9]+$/), z.number().int().nonnegative()]);

/** Builds a {@link GasSource} for Sui from its JSON-RPC URL. */
export function createSuiGasSource(options: {
  domain: number;
  rpcUrl: string;
  multiplierBps: bigint;
  timeoutMs: number;
}): GasSource {
  return {
    domain: options.domain,
    name: 'sui-rpc',
    async fetch() {
      const mist = BigInt(
        await rpcCall(
          options.rpcUrl,
          'suix_getReferenceGasPrice',
          [],
          ReferenceGasPrice,
          options.timeoutMs,
        ),
      );
      return { price: ceilDiv(mist * options.multiplierBps, BPS_SCALE), decimals: 9 };
    },
  };
}
