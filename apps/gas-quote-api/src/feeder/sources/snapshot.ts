/**
 * The bundled snapshot source (src/feeder/snapshot.json): plausible gas and USD prices and transfer
 * contract fees so the API
 * runs with nothing configured. Used ONLY when no RPC_URL_<DOMAIN> is set; each refresh stamps the
 * values with the current time, so they pass the freshness check (docs/architecture.md "Embedded defaults").
 */
import { readFileSync } from 'node:fs';
import { z } from '@ctss/domain-types';
import { USD_DECIMALS, parseDecimal } from '../../fixed-point.js';
import type { ContractFeeSource, GasSource, UsdSource } from './types.js';
import type { Clock } from '../../clock.js';

const Snapshot = z.object({
  usd: z.record(z.string(), z.string().regex(/^[0-9]+(\.[0-9]+)?$/)),
  gas: z.record(
    z.string().regex(/^[0-9]+$/),
    z.object({ price: z.string().regex(/^[0-9]+$/), decimals: z.number().int().min(0) }),
  ),
  /** Transfer contract percentage fee per origin domain, basis points. */
  contractFeeBps: z.record(z.string().regex(/^[0-9]+$/), z.number().int().min(0).max(10_000)),
});
/** The parsed snapshot file. */
export type Snapshot = z.infer<typeof Snapshot>;

/**
 * Reads and validates the bundled snapshot (next to this module's directory, in src/ or dist/).
 * @throws when the file is missing or malformed.
 */
export function loadSnapshot(url: URL = new URL('../snapshot.json', import.meta.url)): Snapshot {
  return Snapshot.parse(JSON.parse(readFileSync(url, 'utf8')));
}

/** Gas sources for every domain in the snapshot. */
export function snapshotGasSources(snapshot: Snapshot): GasSource[] {
  return Object.entries(snapshot.gas).map(([domain, g]) => ({
    domain: Number(domain),
    name: 'snapshot',
    fetch: () => Promise.resolve({ price: BigInt(g.price), decimals: g.decimals }),
  }));
}

/** Transfer contract fee sources (source name `snapshot`) for every domain in the snapshot. */
export function snapshotContractFeeSources(snapshot: Snapshot): ContractFeeSource[] {
  return Object.entries(snapshot.contractFeeBps).map(([domain, bps]) => ({
    domain: Number(domain),
    name: 'snapshot',
    fetch: () => Promise.resolve(bps),
  }));
}

/** A USD source answering from the snapshot, observed at `clock()`. */
export function snapshotUsdSource(snapshot: Snapshot, clock: Clock): UsdSource {
  return {
    name: 'snapshot',
    fetch(symbols) {
      const now = clock();
      const out = new Map<string, { price: bigint; observedAt: number }>();
      for (const s of symbols) {
        const v = snapshot.usd[s];
        if (v !== undefined) out.set(s, { price: parseDecimal(v, USD_DECIMALS), observedAt: now });
      }
      return Promise.resolve(out);
    },
  };
}
