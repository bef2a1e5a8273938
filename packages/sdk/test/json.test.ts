/** Lossless reading of amounts (docs/api.md "Exact integers in JSON"). */
import { describe, expect, it } from '@jest/globals';
import { JsonReadError, parseJson } from '../src/index.js';

describe('parseJson', () => {
  it('keeps amount digits above 2^53 as bigint and other numbers as numbers', () => {
    const body = parseJson(
      '{"id":7,"gas_drop_amount":123456789012345678901,"deposit_amount":0,"total_volume_usd":1.5,"fee_executed":null}',
    );
    expect(body).toEqual({
      id: 7,
      gas_drop_amount: 123456789012345678901n,
      deposit_amount: 0n,
      total_volume_usd: 1.5,
      fee_executed: null,
    });
  });

  it('refuses a non-amount integer that a number cannot hold, and non-JSON', () => {
    expect(() => parseJson('{"id":9007199254740993}')).toThrow(JsonReadError);
    expect(() => parseJson('{"max_fee":1.5}')).toThrow(JsonReadError);
    expect(() => parseJson('<html>')).toThrow(JsonReadError);
  });
});
