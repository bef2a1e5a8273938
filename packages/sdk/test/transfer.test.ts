/**
 * Transfer parameters and costs by the deployed contracts' rules (docs/indexer.md "Record
 * fields"): keeps amount * feeBP / 10000 + the USDC relayer fee and burns the rest; a USDC gas
 * drop is pulled on top by v1 and taken out of the amount by v2; Circle's fast fee comes out of
 * the burned amount, at most maxFee.
 */
import { describe, expect, it } from '@jest/globals';
import {
  FALLBACK_FEE_MILLI_BPS,
  TransferInputError,
  buildTransferPlan,
  quoteTransfer,
  transferCosts,
  type EcdsaVerifiedQuote,
  type SdkRouteInfo,
} from '../src/index.js';

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
      contractFeeBps: 10n,
      contractFeeSource: 'given',
      gasDrop: 2_000_000n,
      gasDropCurrency: 'usdc',
      circleFeeMax: 15_260n,
      circleFeeExpected: 12_717n,
      circleFeeSource: 'iris',
      userPaysUsdc: 100_000_000n,
      userPaysNative: 0n,
      burned: 97_820_000n,
      // 80000 relayer + 100000 contract (the 2000000 gas drop is kept too, not as a fee)
      feesUsdc: 180_000n,
      recipientGetsMin: 97_804_740n,
      recipientGetsExpected: 97_807_283n,
      // 1e8 - 97807283 = 180000 fees + 2000000 gas drop + 12717 Circle; at most 2180000 + 15260
      totalCostUsdc: 2_192_717n,
      totalCostUsdcMax: 2_195_260n,
    });
    // The plan's costs are those transferCosts gives without a recipient.
    expect(
      transferCosts(quote, { amount: 100_000_000n, gasDrop: 2_000_000n, finality: 'fast' }, fees),
    ).toEqual(plan.costs);
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

describe('transferCosts', () => {
  const none = { contractFeeBps: 10n, circleFeeMilliBps: 0n, circleFeeSource: 'none' } as const;

  it("reproduces the demo transfer's recorded fee: the quoted relayer fee + 10 bps of the amount", () => {
    // A v1 USDC-fee transfer of 467.08 USDC quoted 0.08 USDC: the Monitoring API recorded
    // relayer_fee 547080 (deposit_amount - burned amount, docs/indexer.md "Record fields").
    const costs = transferCosts({ ...quote, version: 1 }, { amount: 467_080_000n }, none);
    expect(costs).toMatchObject({
      relayerFee: 80_000n,
      contractFee: 467_080n,
      feesUsdc: 547_080n,
      userPaysUsdc: 467_080_000n,
      userPaysNative: 0n,
      burned: 466_532_920n,
      circleFeeMax: 0n,
      circleFeeSource: 'none',
      recipientGetsMin: 466_532_920n,
      recipientGetsExpected: 466_532_920n,
      totalCostUsdc: 547_080n,
      totalCostUsdcMax: 547_080n,
    });
    expect(costs.feesUsdc).toBe(80_000n + (467_080_000n * 10n) / 10_000n);
  });

  it('rounds the contract fee down as the contract does, and pulls a v1 USDC gas drop on top', () => {
    // 12345679 * 10 / 10000 = 12345.679 -> 12345
    const costs = transferCosts(
      { ...quote, version: 1 },
      { amount: 12_345_679n, gasDrop: 1_500_000n },
      none,
    );
    expect(costs).toMatchObject({
      contractFee: 12_345n,
      userPaysUsdc: 13_845_679n,
      burned: 12_253_334n,
      feesUsdc: 92_345n,
      // 13845679 - 12253334: the fees and the 1500000 gas drop
      totalCostUsdc: 1_592_345n,
    });
  });

  it('keeps a native fee and gas drop apart, in wei, from the USDC figures', () => {
    const costs = transferCosts(
      { ...quote, isNative: true, fee: 123_456_789_012_345n },
      { amount: 50_000_000n, gasDrop: 50_000_000_000_000_000n, finality: 'fast' },
      { contractFeeBps: 10n, circleFeeMilliBps: 1300n, circleFeeSource: 'iris' },
    );
    // burned = 5e7 - 50000 = 49950000; Circle 1.3 bps = 6493.5 -> 6494; max +20 % = 7792.8 -> 7793
    expect(costs).toMatchObject({
      relayerFeeCurrency: 'native',
      gasDropCurrency: 'native',
      userPaysNative: 50_123_456_789_012_345n,
      userPaysUsdc: 50_000_000n,
      contractFee: 50_000n,
      feesUsdc: 50_000n,
      burned: 49_950_000n,
      circleFeeExpected: 6_494n,
      circleFeeMax: 7_793n,
      recipientGetsExpected: 49_943_506n,
      recipientGetsMin: 49_942_207n,
      totalCostUsdc: 56_494n,
      totalCostUsdcMax: 57_793n,
    });
  });
});

describe('quoteTransfer', () => {
  const route = (fields: Partial<SdkRouteInfo>): SdkRouteInfo => ({
    localDomain: 0,
    destinationDomain: 3,
    cctpVersions: [1, 2],
    signatureScheme: 'ecdsa',
    quotePath: '/getEcdsaSig_native',
    ecdsaPacking: 'compact',
    minFee: '10000',
    quoteValiditySeconds: 300,
    fee: null,
    ...fields,
  });
  const input = { amount: 467_080_000n, finality: 'fast' } as const;
  const readFromContract = () => Promise.resolve(25n);

  it("uses /routes' contractFeeBps when the server read it from the contract", async () => {
    const q = {
      ...quote,
      route: route({ contractFeeBps: 10, contractFeeSource: 'contract', contractFeeAgeSeconds: 3 }),
    };
    const { costs } = await quoteTransfer(q, input, { readContractFeeBps: readFromContract });
    // burned = 467080000 - 467080 - 80000 = 466532920; fallback 14 bps = 653146.088 -> 653147;
    // max +20 % = 783775.3056 -> 783776
    expect(costs).toMatchObject({
      contractFeeBps: 10n,
      contractFeeSource: 'routes',
      feesUsdc: 547_080n,
      burned: 466_532_920n,
      circleFeeSource: 'fallback',
      circleFeeExpected: 653_147n,
      circleFeeMax: 783_776n,
      recipientGetsExpected: 465_879_773n,
      recipientGetsMin: 465_749_144n,
    });
    expect(FALLBACK_FEE_MILLI_BPS[1000]).toBe(14_000n);
  });

  it("prefers the contract to the server's snapshot default, and uses the default only without one", async () => {
    const q = { ...quote, route: route({ contractFeeBps: 10, contractFeeSource: 'snapshot' }) };
    const read = await quoteTransfer(q, input, { readContractFeeBps: readFromContract });
    expect(read.costs).toMatchObject({
      contractFeeBps: 25n,
      contractFeeSource: 'contract',
      contractFee: 1_167_700n,
    });
    const fallback = await quoteTransfer(q, input);
    expect(fallback.costs).toMatchObject({ contractFeeBps: 10n, contractFeeSource: 'snapshot' });
    const given = await quoteTransfer(q, input, { contractFeeBps: 0n });
    expect(given.costs).toMatchObject({ contractFee: 0n, contractFeeSource: 'given' });
  });

  it('reads the contract when /routes has no value, and refuses when nothing tells the fee', async () => {
    const q = { ...quote, route: route({ contractFeeBps: null, contractFeeSource: null }) };
    const read = await quoteTransfer(q, input, { readContractFeeBps: readFromContract });
    expect(read.costs.contractFeeSource).toBe('contract');
    await expect(quoteTransfer(q, input)).rejects.toThrow(TransferInputError);
    await expect(quoteTransfer(quote, input)).rejects.toThrow(/contractFeeBps/);
  });
});
