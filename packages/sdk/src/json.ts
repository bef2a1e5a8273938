/**
 * Lossless JSON reading (docs/api.md "Exact integers in JSON"): amounts can exceed 2^53, so
 * response bodies are parsed with `lossless-json`, never `JSON.parse`. Numbers under the keys a
 * caller names become `bigint` (exactly as written); every other number becomes a `number` only
 * when that loses nothing.
 */
import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';

/** The record fields of the Monitoring API that hold amounts (docs/api.md "Transaction record"). */
export const AMOUNT_KEYS: ReadonlySet<string> = new Set([
  'deposit_amount',
  'receive_amount',
  'relayer_fee',
  'gas_drop_amount',
  'max_fee',
  'fee_executed',
  'total_volume',
  'user_volume',
]);

/** Raised when a body is not JSON or holds a number that cannot be read exactly. */
export class JsonReadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JsonReadError';
  }
}

function toValue(key: string, value: LosslessNumber, bigintKeys: ReadonlySet<string>): unknown {
  const text = value.toString();
  if (bigintKeys.has(key)) {
    if (!/^-?[0-9]+$/.test(text)) {
      throw new JsonReadError(`${key}: expected an integer amount, got ${text}`);
    }
    return BigInt(text);
  }
  const n = Number(text);
  // Safe when the number prints back as the same value: an integer within 2^53, or a float whose
  // digits a double holds (`_usd` fields, token prices).
  if (/^-?[0-9]+$/.test(text) ? !Number.isSafeInteger(n) : !Number.isFinite(n)) {
    throw new JsonReadError(`${key}: ${text} does not fit a JavaScript number`);
  }
  return n;
}

/**
 * Parses JSON text without losing integer digits.
 *
 * @param text the body.
 * @param bigintKeys object keys whose numbers are returned as `bigint` (default {@link AMOUNT_KEYS}).
 * @returns the parsed value: plain objects, arrays, strings, booleans, null, `number`s and `bigint`s.
 * @throws {JsonReadError} when the text is not JSON, a bigint key holds a non-integer, or another
 *   number does not fit a `number` exactly.
 * @example parseJson('{"deposit_amount":9007199254740993}') // { deposit_amount: 9007199254740993n }
 */
export function parseJson(text: string, bigintKeys: ReadonlySet<string> = AMOUNT_KEYS): unknown {
  try {
    return parse(text, (key, value) =>
      isLosslessNumber(value) ? toValue(key, value, bigintKeys) : value,
    );
  } catch (err) {
    if (err instanceof JsonReadError) throw err;
    throw new JsonReadError(`response is not JSON: ${(err as Error).message}`, { cause: err });
  }
}
