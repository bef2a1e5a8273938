/**
 * How `pnpm demo` follows a transfer it sent (docs/indexer.md "Demo"): `trackTransfer` of
 * `@ctss/sdk` (docs/sdk.md), each stage it reaches logged with the record's status, amount, fee
 * executed and nonce, until it settles or the demo stops.
 */
import type { CtssClient } from '@ctss/sdk';

/**
 * Follows the transfer of origin transaction `hash` (0x hex, or a base58 Solana signature) and
 * logs each stage.
 *
 * @returns a promise settled when tracking ends (never rejected: an end before settlement is logged
 *   unless `signal` was aborted).
 */
export function followTransfer(
  ctss: CtssClient,
  hash: string,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<unknown> {
  return ctss
    .trackTransfer(hash, {
      signal,
      pollIntervalMs: 500,
      onProgress: (p) => {
        const r = p.record;
        log(
          `  ${hash.slice(0, 10)} ${p.stage} at ${p.at.toISOString()}: status=${r.destination_tx_status} receive_amount=${r.receive_amount} fee_executed=${String(r.fee_executed)} nonce=${String(r.nonce)}`,
        );
      },
    })
    .catch((err: unknown) => {
      if (!signal.aborted) log(`tracking of ${hash} ended: ${(err as Error).message}`);
    });
}
