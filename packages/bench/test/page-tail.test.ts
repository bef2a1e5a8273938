import { describe, expect, it } from '@jest/globals';
import { pageTail } from '../src/workloads.js';

/** A feed page as docs/api.md "Pagination" lays it out, serialized by JSON.stringify. */
function page(records: object[], nextCursor: string, hasMore: boolean, indent?: number): string {
  return JSON.stringify(
    { transactions: records, next_cursor: nextCursor, has_more: hasMore },
    null,
    indent,
  );
}

const record = (id: number, status: string) => ({
  id,
  sender: `0x${'ab'.repeat(20)}`,
  destination_tx_status: status,
  created_at: '2026-11-20T20:05:09.000Z',
});

/** What a full parse of the body gives for the two fields the walk reads. */
function parsedWhole(body: string): { next_cursor?: unknown; has_more?: unknown } {
  const whole = JSON.parse(body) as { next_cursor?: unknown; has_more?: unknown };
  return { next_cursor: whole.next_cursor, has_more: whole.has_more };
}

describe('pageTail', () => {
  const bodies: Array<[string, string]> = [
    ['a full page', page([record(2, 'success'), record(1, 'pending')], '1795204465_950567', true)],
    ['the last page', page([record(1, 'failed')], '', false)],
    ['an empty page', page([], '', false)],
    [
      'records whose text holds the key, escaped as JSON strings always are',
      page(
        [
          record(3, '"next_cursor":"forged","has_more":false}'),
          record(2, '\\"next_cursor\\":\u0001'),
        ],
        '1795204465_7',
        true,
      ),
    ],
    ['a pretty-printed page', page([record(1, 'success')], '1795204465_1', true, 2)],
  ];

  it.each(bodies)('reads next_cursor and has_more of %s as a full parse does', (_name, body) => {
    expect(pageTail(body)).toEqual(parsedWhole(body));
  });

  it('reads the forged-looking record as data, not as the page cursor', () => {
    const body = bodies[3]![1];
    expect(pageTail(body)).toEqual({ next_cursor: '1795204465_7', has_more: true });
  });

  it('parses a body without the key whole (a problem details body has no cursor)', () => {
    const problem = JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400 });
    expect(pageTail(problem)).toEqual(JSON.parse(problem));
    expect(pageTail(problem).next_cursor).toBeUndefined();
  });

  it('throws on a body that is not JSON, as JSON.parse does', () => {
    expect(() => pageTail('<html>')).toThrow(SyntaxError);
    expect(() => pageTail('{"next_cursor":')).toThrow(SyntaxError);
  });
});
