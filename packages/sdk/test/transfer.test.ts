/**
 * Transfer parameters and costs by the deployed contracts' rules (docs/indexer.md "Record
 * fields"): keeps amount * feeBP / 10000 + the USDC relayer fee and burns the rest; a USDC gas
 * drop is pulled on top by v1 and taken out of the amount by v2; Circle's fast fee comes out of
 * the burned amount, at most maxFee.
 */
import { describe, expect, it } from '@jest/globals';
import { TransferInputError, buildTransferPlan, type EcdsaVerifiedQuote } from '../src/index.js';

const quote: EcdsaVerifiedQuote = {
  scheme: 'ecdsa',
  localDomain: 0,
  destinationDomain: 3,
  version: 2,
  isNative: false,
  fee: 80_000n,
  deadline: 1_795_580_575n,
  signature: `0x${'11'.repeat(65)}`,
  signer: '0x0000000000000000000000000000000000000001',
  packing: 'compact',
};
const recipient = '0x00000000000000000000000000000000000c0de2';
const fees = { contractFeeBps: 10n, circleFeeMilliBps: 1300n, circleFeeSource: 'iris' } as const;

describe('buildTransferPlan', () => {
  it('adds the fees of a fast v2 USDC-fee transfer with a gas drop', () => {
    const plan = buildTransferPlan(
      quote,
      { amount: 100_000_000n, recipient, gasDrop: 2_000_000n, finality: 'fast' },
      fees,
    );
    // contract 0.1 % = 100000; v2 takes the gas drop out of the amount:
    // burned = 1e8 - 100000 - 80000 - 2000000 = 97820000;
    // Circle 1.3 bps of it = 12716.6 -> 12717; maxFee +20 % = 15259.92 -> 15260.
    expect(plan.costs).toEqual({
      amount: 100_000_000n,
      relayerFee: 80_000n,
      relayerFeeCurrency: 'usdc',
      contractFee: 100_000n,
      gasDrop: 2_000_000n,
      gasDropCurrency: 'usdc',
      circleFeeMax: 15_260n,
      circleFeeExpected: 12_717n,
      userPaysUsdc: 100_000_000n,
      userPaysNative: 0n,
      burned: 97_820_000n,
      recipientGetsMin: 97_804_740n,
      recipientGetsExpected: 97_807_283n,
    });
    expect(plan).toMatchObject({
      functionName: 'transferV2',
      value: 0n,
      params: {
        maxFee: 15_260n,
        minFinalityThreshold: 1000,
        gasDropAmount: 2_000_000n,
        hookData: '0x',
      },
    });
  });

  it('puts the native fee and gas drop in the value of a native-fee v1 transfer', () => {
    const plan = buildTransferPlan(
      { ...quote, version: 1, isNative: true, fee: 720_000_000_000_000n },
      { amount: 5_000_000n, recipient, gasDrop: 10n ** 15n },
      fees,
    );
    expect(plan.functionName).toBe('transfer');
    expect(plan.value).toBe(720_000_000_000_000n + 10n ** 15n);
    expect(plan.costs).toMatchObject({
      userPaysUsdc: 5_000_000n,
      contractFee: 5_000n,
      burned: 4_995_000n,
      circleFeeMax: 0n,
    });
  });

  it('checks units, widths, versions and that the amount covers the fees', () => {
    const bad = (input: Record<string, unknown>) => () =>
      buildTransferPlan(quote, { amount: 100_000_000n, recipient, ...input }, fees);
    expect(bad({ amount: 100 })).toThrow(TransferInputError);
    expect(bad({ amount: 1n << 64n })).toThrow(/out of range/);
    expect(bad({ gasDrop: -1n })).toThrow(/out of range/);
    expect(bad({ version: 1 })).toThrow(/quote is for CCTP v2/);
    expect(bad({ amount: 80_050n })).toThrow(/does not cover the fees/);
    expect(() =>
      buildTransferPlan(
        { ...quote, version: 1 },
        { amount: 1_000_000n, recipient, finality: 'fast' },
        fees,
      ),
    ).toThrow(/v1 has no finality/);
  });
});
