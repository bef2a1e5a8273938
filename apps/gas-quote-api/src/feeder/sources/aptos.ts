/**
 * Aptos gas price from the node REST API `GET /v1/estimate_gas_price` (octas per gas unit,
 * decimals 8); uses `prioritized_gas_estimate` when present, else `gas_estimate`.
 */
import { z } from '@ctss/domain-types';
import { BPS_SCALE, ceilDiv } from '../../fixed-point.js';
import { getJson } from './http.js';
import type { GasSource } from './types.js';

const GasEstimate = z.object({
  gas_estimate: z.number().int().nonnegative(),
  prioritized_gas_estimate: z.number().int().nonnegative().optional(),
  deprioritized_gas_estimate: z.number().int().nonnegative().optional(),
});

/** Builds a {@link GasSource} for Aptos; `rpcUrl` is the node base URL (with or without `/v1`). */
export function createAptosGasSource(options: {
  domain: number;
  rpcUrl: string;
  multiplierBps: bigint;
  timeoutMs: number;
}): GasSource {
  const base = options.rpcUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return {
    domain: options.domain,
    name: 'aptos-rest',
    async fetch() {
      const est = await getJson(`${base}/v1/estimate_gas_price`, GasEstimate, options.timeoutMs);
      const octas = BigInt(est.prioritized_gas_estimate ?? est.gas_estimate);
      return { price: ceilDiv(octas * options.multiplierBps, BPS_SCALE), decimals: 8 };
    },
  };
}
