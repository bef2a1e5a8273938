import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { toHttpProblem } from '../src/problem.js';
import { findUnstorableText, isStorableText, parseBody, parseQuery } from '../src/validate.js';

const problemOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return toHttpProblem(err).toBody();
  }
  throw new Error('expected a throw');
};

describe('text PostgreSQL cannot store', () => {
  it('flags U+0000 and unpaired surrogates, and nothing else', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'a\udc00', '\udbff\ud800', 'x\ud83d']) {
      expect(isStorableText(bad)).toBe(false);
    }
    for (const good of ['', 'alice.ctss', '😀', 'e\u0301', '\u202e', '\u0001\u007f', '١٢٣']) {
      expect(isStorableText(good)).toBe(true);
    }
  });

  it('names the first bad value or key, and walks deep nesting without recursion', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'x\u0000' }] })).toBe('a.1.b');
    expect(findUnstorableText({ ok: { 'k\ud800': 1 } })).toBe('ok');
    expect(findUnstorableText({ a: ['ok', 1, null, true] })).toBeUndefined();
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toMatch(/^0\.0\./);
  });

  it('makes a bad query value a 400 INVALID_QUERY and a bad body field a 400 INVALID_BODY', () => {
    const query = z.object({ search: z.string() }).strict();
    expect(problemOf(() => parseQuery(query, { search: 'a\u0000' }))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
      detail: 'search: must not contain U+0000 or unpaired UTF-16 surrogates',
    });
    expect(parseQuery(query, { search: 'a😀' })).toEqual({ search: 'a😀' });
    const body = z.object({ username: z.string() });
    expect(problemOf(() => parseBody(body, { username: '\ud800' }))).toMatchObject({
      status: 400,
      code: 'INVALID_BODY',
    });
  });
});

describe('validation details', () => {
  const query = z.strictObject({
    limit: z
      .string()
      .regex(/^[0-9]+$/, 'must be a positive integer')
      .optional()
      .meta({ description: 'Page size, 1 to 100.' }),
    network: z.enum(['mainnet', 'devnet']).optional(),
    from: z.string().min(1),
  });
  const detailOf = (input: unknown) =>
    (problemOf(() => parseQuery(query, input)) as { detail: string }).detail;

  it('names the parameter and what it accepts, never the library wording', () => {
    expect(detailOf({ from: 'a', limit: ['1', '2'] })).toBe(
      'limit: must be given once, not 2 times (page size, 1 to 100)',
    );
    expect(detailOf({ from: 'a', sender: 'x' })).toBe('unknown parameter: sender');
    expect(detailOf({ from: 'a', sender: 'x', b: 'y' })).toBe('unknown parameters: sender, b');
    expect(detailOf({})).toBe('from: is required');
    expect(detailOf({ from: '' })).toBe('from: must not be empty');
    expect(detailOf({ from: 'a', network: 'x' })).toBe('network: must be one of mainnet, devnet');
    expect(detailOf({ from: 'a', network: ['mainnet', 'devnet'] })).toBe(
      'network: must be given once, not 2 times',
    );
    // A schema's own message wins.
    expect(detailOf({ from: 'a', limit: 'x' })).toBe('limit: must be a positive integer');
  });

  it('words unknown body fields as fields', () => {
    const body = z.strictObject({ username: z.string().max(3) });
    const detail = (input: unknown) =>
      (problemOf(() => parseBody(body, input)) as { detail: string }).detail;
    expect(detail({ username: 'a', sender: 'x' })).toBe('unknown field: sender');
    expect(detail({ username: 'abcd' })).toBe('username: must be at most 3 characters');
    expect(detail({ username: 1 })).toBe('username: must be a string');
  });
});

describe('body-parser errors', () => {
  it('maps a body that does not decompress, a bad length and an aborted body to 400 INVALID_BODY', () => {
    const cases = [
      { status: 400, code: 'Z_DATA_ERROR' },
      { status: 400, code: 'Z_BUF_ERROR' },
      { status: 400, code: 'ERR__ERROR_FORMAT_PADDING_2' },
      { status: 400, type: 'request.size.invalid' },
      { status: 400, type: 'request.aborted' },
    ];
    for (const err of cases) {
      expect(toHttpProblem(Object.assign(new Error('x'), err)).toBody()).toMatchObject({
        status: 400,
        code: 'INVALID_BODY',
      });
    }
    expect(toHttpProblem(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).status).toBe(500);
  });
});
