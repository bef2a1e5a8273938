/**
 * The feed cursor `<unix_ts>_<id>` (docs/api.md "Pagination"; docs/decisions.md
 * "D4. Cursor format and the last page"): the
 * created_at second and id of the last row of the previous page; the next page holds the rows
 * strictly after it in (created_at second, id) DESC order.
 */
import { TransactionCursor } from '@ctss/domain-types';
import { HttpProblem } from '@ctss/server-kit';
import { MAX_UNIX_SECONDS } from '../params.js';

/** A decoded cursor. */
export interface FeedCursor {
  /** created_at of the last row seen, whole UNIX seconds. */
  readonly seconds: number;
  /** id of the last row seen (bigint: ids may exceed 2^53 in the column type). */
  readonly id: bigint;
}

const INT8_MAX = 9_223_372_036_854_775_807n;

/**
 * Parses `<unix_ts>_<id>`.
 *
 * @throws HttpProblem 400 INVALID_CURSOR when malformed or out of range.
 */
export function parseCursor(text: string): FeedCursor {
  if (text.length > 40 || !TransactionCursor.safeParse(text).success) {
    throw new HttpProblem(
      400,
      'INVALID_CURSOR',
      'cursor: must be "<unix_ts>_<id>" as returned in next_cursor',
    );
  }
  const [secondsText, idText] = text.split('_') as [string, string];
  const seconds = Number(secondsText);
  const id = BigInt(idText);
  if (seconds > MAX_UNIX_SECONDS || id > INT8_MAX) {
    throw new HttpProblem(400, 'INVALID_CURSOR', 'cursor: timestamp or id out of range');
  }
  return { seconds, id };
}
