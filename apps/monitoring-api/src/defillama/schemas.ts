/**
 * Query and response schemas of the DefiLlama endpoints (docs/api.md "DefiLlama adapters";
 * docs/decisions.md "D57. DefiLlama figures"). The same schemas validate the requests, type the
 * responses and give the OpenAPI document its parameters and bodies.
 */
import { z } from '@ctss/domain-types';
import { unixTimeParam } from '../params.js';

/** A window bound: UNIX seconds, any alignment (docs/decisions.md "D68. DefiLlama windows of any alignment"). */
const windowBound = (description: string, example: string) =>
  unixTimeParam.openapi({ type: 'string', pattern: '^[0-9]{1,12}$', description, example });

/**
 * `?from_timestamp&to_timestamp`: the window [from, to) in UNIX seconds, any alignment, from
 * before to. DefiLlama's fee runner asks for `[T - 86401, T)` (dimension-adapters
 * `adapters/utils/runAdapter.ts`), which is not on an hour.
 */
export const WindowQuery = z
  .strictObject({
    from_timestamp: windowBound(
      'Inclusive start of the window, UNIX seconds (UTC), any second.',
      '1795391999',
    ),
    to_timestamp: windowBound(
      'Exclusive end of the window, UNIX seconds (UTC), any second; after from_timestamp.',
      '1795478400',
    ),
  })
  .refine((q) => q.from_timestamp < q.to_timestamp, {
    message: 'from_timestamp must be before to_timestamp',
    path: ['from_timestamp'],
  });
export type WindowQuery = z.output<typeof WindowQuery>;

/** USD amount (USDC at 1 USD; base units / 10^6), a float as every `_usd` figure. */
const usd = (description: string) => z.number().min(0).openapi({ description });

/** `GET /defillama/bridge/volumes`. */
export const BridgeVolumeResponse = z
  .object({ volumeUsd: usd('sum of deposit_amount over the window') })
  .openapi('DefiLlamaBridgeVolume');
export type BridgeVolumeResponse = z.infer<typeof BridgeVolumeResponse>;

/** `GET /defillama/fees`. */
export const FeesResponse = z
  .object({
    volumeUsd: usd('sum of deposit_amount over the window'),
    feesUsd: usd('sum of deposit_amount - receive_amount: all a user paid for the transfer'),
    revenuesUsd: usd('sum of relayer_fee: the part the bridge keeps'),
    protocolRevenueUsd: usd('sum of relayer_fee: all revenue goes to the protocol'),
  })
  .openapi('DefiLlamaFees');
export type FeesResponse = z.infer<typeof FeesResponse>;
