import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../src/config.js';
import { envBoolean, envInteger, envJson, envList, envUrl } from '../src/service-config.js';

/** The `VARIABLE: message` lines parseConfig reports for `env` under `schema`, or [] when valid. */
function issues(schema: z.ZodType, env: Record<string, string>): string[] {
  try {
    parseConfig(schema, env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}

describe('environment value parsers', () => {
  const schema = z.object({
    N: envInteger(1, 10).default(5),
    B: envBoolean().default(false),
    L: envList().default(['*']),
    U: envUrl().optional(),
    R: envUrl(/^rediss?$/).optional(),
    J: envJson(z.record(z.string(), z.number()), 'a JSON object of numbers').optional(),
  });

  it('takes each default when the variable is absent or empty', () => {
    expect(parseConfig(schema, { N: '', B: '', L: '' })).toEqual({ N: 5, B: false, L: ['*'] });
  });

  it('reads booleans as true/1 and false/0, and nothing else', () => {
    for (const [text, value] of [
      ['true', true],
      ['1', true],
      [' false ', false],
      ['0', false],
    ] as const) {
      expect(parseConfig(schema, { B: text }).B).toBe(value);
    }
    for (const text of ['yes', 'TRUE', 'on', '2']) {
      expect(issues(schema, { B: text })).toEqual([expect.stringMatching(/^B: /)]);
    }
  });

  it('reads integers as decimal digits within the bounds only', () => {
    expect(parseConfig(schema, { N: ' 7 ' }).N).toBe(7);
    for (const text of ['0', '11', '1e1', '0x5', '-3', '2.5', 'five']) {
      expect(issues(schema, { N: text })).toEqual([expect.stringMatching(/^N: /)]);
    }
  });

  it('splits comma lists, trimming items and dropping empty ones', () => {
    expect(parseConfig(schema, { L: ' a, b ,,c, ' }).L).toEqual(['a', 'b', 'c']);
  });

  it('accepts URLs of the allowed schemes only', () => {
    expect(parseConfig(schema, { U: ' https://rpc.example/v1 ' }).U).toBe('https://rpc.example/v1');
    expect(parseConfig(schema, { R: 'rediss://cache:6380' }).R).toBe('rediss://cache:6380');
    expect(issues(schema, { U: 'ftp://x.example' })).toEqual([expect.stringMatching(/^U: /)]);
    expect(issues(schema, { U: 'not a url' })).toEqual([expect.stringMatching(/^U: /)]);
    expect(issues(schema, { R: 'http://cache:6379' })).toEqual([expect.stringMatching(/^R: /)]);
  });

  it('parses JSON through its schema and names what was expected, never the value', () => {
    expect(parseConfig(schema, { J: '{"a":1}' }).J).toEqual({ a: 1 });
    expect(issues(schema, { J: '{secret' })).toEqual(['J: must be a JSON object of numbers']);
    expect(issues(schema, { J: '{"a":"x"}' })).toEqual([expect.stringMatching(/^J\.a: /)]);
  });
});
