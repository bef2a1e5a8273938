import {
  ceilDiv,
  fixedToNumber,
  formatFixed,
  numberToFixed,
  parseDecimal,
  scaleExpo,
} from './fixed-point.js';

describe('fixed-point helpers', () => {
  it('parses decimals, rounding half up past the kept places', () => {
    expect(parseDecimal('3012.45', 8)).toBe(301_245_000_000n);
    expect(parseDecimal('0.123456789', 8)).toBe(12_345_679n);
    expect(parseDecimal('0.123456784', 8)).toBe(12_345_678n);
    expect(parseDecimal('7', 0)).toBe(7n);
    for (const bad of ['', '-1', '1e3', '1.', '.5', 'abc'])
      expect(() => parseDecimal(bad, 8)).toThrow(RangeError);
  });

  it('formats without trailing zeros and back', () => {
    expect(formatFixed(301_245_000_000n, 8)).toBe('3012.45');
    expect(formatFixed(25_000_000n, 8)).toBe('0.25');
    expect(formatFixed(3000n * 10n ** 8n, 8)).toBe('3000');
    expect(fixedToNumber(13_392_000n, 6)).toBe(13.392);
  });

  it('converts JS numbers through their decimal text, with no binary noise', () => {
    expect(numberToFixed(0.1 + 0.2, 8)).toBe(30_000_000n);
    expect(numberToFixed(3050.5, 8)).toBe(305_050_000_000n);
    expect(numberToFixed(1e-9, 8)).toBe(0n);
    expect(() => numberToFixed(Number.NaN, 8)).toThrow(RangeError);
  });

  it('scales Pyth mantissa/exponent pairs', () => {
    expect(scaleExpo(310_000_000_000n, -8, 8)).toBe(310_000_000_000n);
    expect(scaleExpo(31_000n, -2, 8)).toBe(31_000_000_000n);
    expect(scaleExpo(123_456_789_015n, -10, 8)).toBe(1_234_567_890n);
    expect(() => scaleExpo(-1n, -8, 8)).toThrow(RangeError);
  });

  it('divides rounding up', () => {
    expect(ceilDiv(10n, 5n)).toBe(2n);
    expect(ceilDiv(11n, 5n)).toBe(3n);
    expect(ceilDiv(0n, 5n)).toBe(0n);
    expect(() => ceilDiv(1n, 0n)).toThrow(RangeError);
  });
});
