import { describe, expect, it } from '@jest/globals';
import { createChainRegistry, DEFAULT_CHAINS, UnknownDomainError } from '../src/chains.js';

const chains = createChainRegistry();

describe('chain registry (docs/architecture.md "Chains")', () => {
  it('serves exactly the designed CCTP domains, ordered, with their native decimals', () => {
    expect(chains.all().map((c) => c.domain)).toEqual([
      0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 19,
    ]);
    expect(chains.require(5).nativeDecimals).toBe(9);
    expect(chains.require(8).nativeDecimals).toBe(9);
    expect(chains.require(9).nativeDecimals).toBe(8);
    expect(
      chains
        .all()
        .filter((c) => c.vm === 'evm')
        .every((c) => c.nativeDecimals === 18),
    ).toBe(true);
  });

  it('carries the minimum relayer fees of docs/api.md "Limits"', () => {
    const fee = (d: number) => chains.require(d).minRelayerFee;
    expect([fee(0), fee(5), fee(11), fee(19), fee(3), fee(6)]).toEqual([
      200_000n,
      590_000n,
      100_000n,
      100_000n,
      80_000n,
      80_000n,
    ]);
  });

  it.each([
    [0, 3, 1, true],
    [0, 3, 2, true],
    [3, 5, 2, true],
    [5, 3, 2, true],
    [5, 5, 2, false],
    [0, 0, 1, false],
    [0, 8, 1, true],
    [0, 8, 2, false],
    [8, 9, 1, true],
    [8, 5, 2, false],
    [0, 11, 1, false],
    [11, 0, 2, true],
    [19, 14, 1, false],
    [0, 4, 1, false],
    [99, 0, 2, false],
  ] as const)('route %i -> %i over v%i supported: %s', (local, dest, version, expected) => {
    expect(chains.isRouteSupported(local, dest, version)).toBe(expected);
  });

  it('applies configuration overrides to existing domains only', () => {
    const custom = createChainRegistry({ 3: { redeemGas: 1n, minRelayerFee: 5n } });
    expect(custom.require(3)).toMatchObject({
      domain: 3,
      key: 'arbitrum',
      redeemGas: 1n,
      minRelayerFee: 5n,
    });
    expect(DEFAULT_CHAINS.find((c) => c.domain === 3)?.redeemGas).not.toBe(1n);
    expect(() => createChainRegistry({ 4: { redeemGas: 1n } })).toThrow(UnknownDomainError);
    expect(() => chains.require(4)).toThrow('CCTP domain 4 is not served');
    expect(chains.get(4)).toBeUndefined();
  });
});
