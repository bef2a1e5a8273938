import { computeRouteFee, gasCostNative, toNative } from './fee.js';
import { USD_SCALE } from '../fixed-point.js';

const ETH = 3000n * USD_SCALE;
const base = {
  destGasPrice: { price: 1_000_000_000n, decimals: 18 },
  destRedeemGas: 200_000n,
  destPriceUsd: ETH,
  adjustmentBps: 12_000n,
  minFee: 80_000n,
  originPriceUsd: ETH,
  originDecimals: 18,
};

describe('computeRouteFee', () => {
  it('prices the redeem gas in USD with the adjustment (1 gwei x 200000 gas at 3000 USD, x1.2 = 0.72 USD)', () => {
    expect(computeRouteFee(base)).toEqual({
      feeBase: 720_000n,
      feeBaseRaw: 720_000n,
      feeNative: 240_000_000_000_000n,
    });
  });

  it('applies the destination minimum when the gas cost is lower', () => {
    const fee = computeRouteFee({ ...base, destGasPrice: { price: 10_000_000n, decimals: 18 } });
    // 0.01 gwei x 200000 = 2e12 wei = 0.006 USD, x1.2 = 0.0072 USD -> 7200 base units < 80000.
    expect(fee.feeBaseRaw).toBe(7_200n);
    expect(fee.feeBase).toBe(80_000n);
  });

  it('rounds every division up, so the relayer is never under-paid', () => {
    // 1 wei x 1 gas at 0.00000001 USD: a vanishing cost still costs one base unit before the minimum.
    const tiny = computeRouteFee({
      ...base,
      destGasPrice: { price: 1n, decimals: 18 },
      destRedeemGas: 1n,
      destPriceUsd: 1n,
      minFee: 0n,
    });
    expect(tiny.feeBaseRaw).toBe(1n);
    // 80000 base units = 0.08 USD at 3000 USD/ETH = 26666666666666.67 wei -> 26666666666667.
    expect(toNative(80_000n, ETH, 18)).toBe(26_666_666_666_667n);
  });

  it('satisfies the ceiling bounds for many inputs', () => {
    let seed = 42n;
    const rand = (max: bigint) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return (seed % max) + 1n;
    };
    for (let i = 0; i < 500; i++) {
      const input = {
        destGasPrice: { price: rand(10n ** 12n), decimals: Number(rand(12n)) + 6 },
        destRedeemGas: rand(10n ** 7n),
        destPriceUsd: rand(10n ** 13n),
        adjustmentBps: rand(30_000n),
        minFee: rand(10n ** 6n),
        originPriceUsd: rand(10n ** 13n),
        originDecimals: Number(rand(18n)),
      };
      const fee = computeRouteFee(input);
      const num =
        input.destGasPrice.price *
        input.destRedeemGas *
        input.destPriceUsd *
        input.adjustmentBps *
        10n ** 6n;
      const den = 10n ** BigInt(input.destGasPrice.decimals) * USD_SCALE * 10_000n;
      expect(fee.feeBaseRaw * den >= num && (fee.feeBaseRaw - 1n) * den < num).toBe(true);
      expect(fee.feeBase).toBe(fee.feeBaseRaw > input.minFee ? fee.feeBaseRaw : input.minFee);
      // feeNative is the least native amount worth at least feeBase.
      const worth = (n: bigint) => n * input.originPriceUsd * 10n ** 6n;
      const owed = fee.feeBase * USD_SCALE * 10n ** BigInt(input.originDecimals);
      expect(worth(fee.feeNative) >= owed && worth(fee.feeNative - 1n) < owed).toBe(true);
    }
  });

  it('rejects non-positive prices and negative inputs', () => {
    expect(() => computeRouteFee({ ...base, destPriceUsd: 0n })).toThrow(RangeError);
    expect(() => computeRouteFee({ ...base, originPriceUsd: -1n })).toThrow(RangeError);
    expect(() => computeRouteFee({ ...base, destRedeemGas: -1n })).toThrow(RangeError);
  });
});

describe('gasCostNative', () => {
  it('returns wei for EVM and converts Solana micro-lamports per CU to lamports, rounding up', () => {
    expect(gasCostNative({ price: 3_000_000_000n, decimals: 18 }, 200_000n, 18)).toBe(
      600_000_000_000_000n,
    );
    // 22500 micro-lamports/CU x 400000 CU = 9e9 micro-lamports = 9000 lamports.
    expect(gasCostNative({ price: 22_500n, decimals: 15 }, 400_000n, 9)).toBe(9_000n);
    expect(gasCostNative({ price: 1n, decimals: 15 }, 1n, 9)).toBe(1n);
  });
});
