import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CHAINS } from '@ctss/domain-types';
import { createRng } from './rng.js';
import { EXTRA_ROUTE_IDS, generateTransactions, type SeedTransaction } from './transactions.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const generate = (seed: number, count: number): SeedTransaction[] => [
  ...generateTransactions(createRng(seed), { count, now: NOW }),
];

describe('generateTransactions', () => {
  const records = generate(42, 4000);

  it('when generating, then records span the last 60 days oldest first, many sharing a second', () => {
    const times = records.map((r) => r.created_at.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - 60 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    expect(times.every((t) => t % 1000 === 0)).toBe(true);
    expect(new Set(times).size).toBeLessThan(times.length * 0.95);
  });

  it('when generating, then every served domain, the non-CCTP route ids, both networks and versions occur', () => {
    const domains = new Set(records.flatMap((r) => [r.source_domain, r.destination_domain]));
    for (const chain of DEFAULT_CHAINS) expect(domains).toContain(chain.domain);
    for (const id of EXTRA_ROUTE_IDS) expect(domains).toContain(id);
    expect(new Set(records.map((r) => r.network))).toEqual(new Set(['mainnet', 'testnet']));
    expect(new Set(records.map((r) => r.version))).toEqual(new Set([1, 2]));
    expect(records.every((r) => r.source_domain !== r.destination_domain)).toBe(true);
  });

  it('when generating, then every destination status and error flag occurs, consistently with the hashes', () => {
    expect(new Set(records.map((r) => r.destination_tx_status))).toEqual(
      new Set(['pending', 'success', 'failed']),
    );
    for (const flag of [
      'has_source_tx_error',
      'has_attestation_error',
      'has_destination_tx_error',
      'confirmed',
      'is_gas_drop_in_native',
    ] as const) {
      expect(records.some((r) => r[flag])).toBe(true);
      expect(records.some((r) => !r[flag])).toBe(true);
    }
    for (const r of records) {
      expect(r.destination_tx_hash === null).toBe(r.destination_tx_status === 'pending');
      if (r.has_destination_tx_error) expect(r.destination_tx_status).toBe('failed');
      expect(r.receive_amount).toBeLessThanOrEqual(r.deposit_amount);
    }
  });

  it('when generating, then addresses and hashes have the format of their chain', () => {
    for (const r of records) {
      if (r.source_domain === 5) {
        expect(r.sender).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
        expect(r.source_tx_hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
      } else if (r.source_domain === 0 || r.source_domain === 3) {
        expect(r.sender).toMatch(/^0x[0-9a-f]{40}$/);
        expect(r.source_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      }
    }
  });

  it('when seeded alike, then the data is identical; another seed differs', () => {
    expect(generate(7, 50)).toEqual(generate(7, 50));
    expect(generate(7, 50)).not.toEqual(generate(8, 50));
  });
});
