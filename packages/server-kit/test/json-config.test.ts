import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../src/config.js';
import { stringifyJson } from '../src/json.js';

describe('stringifyJson', () => {
  it('writes bigints as exact integer literals, also above 2^53', () => {
    const text = stringifyJson({ amount: 9007199254740993n, neg: -5n, nested: [1n, 'x'], n: 1.5 });
    expect(text).toBe('{"amount":9007199254740993,"neg":-5,"nested":[1,"x"],"n":1.5}');
  });

  it('leaves strings that merely look like numbers quoted', () => {
    expect(stringifyJson({ s: '123', t: '__bigint_1' })).toBe('{"s":"123","t":"__bigint_1"}');
  });
});

describe('parseConfig', () => {
  const schema = z.object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    LOG_LEVEL: z.enum(['debug', 'info']).default('info'),
  });

  it('uses defaults for absent and empty variables', () => {
    expect(parseConfig(schema, { LOG_LEVEL: '' })).toEqual({ PORT: 3000, LOG_LEVEL: 'info' });
  });

  it('names every invalid variable without echoing values', () => {
    let caught: unknown;
    try {
      parseConfig(schema, { PORT: 'not-a-port', LOG_LEVEL: 'secret-value' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.issues.map((i) => i.split(':')[0])).toEqual(['PORT', 'LOG_LEVEL']);
    expect(error.message).not.toContain('secret-value');
  });
});

describe('serviceConfigShape', () => {
  it('gives every service the same defaults and parsing for the shared variables', async () => {
    const { serviceConfigShape, rateLimitFromConfig, connectionLimitsFromConfig } =
      await import('../src/service-config.js');
    const { DEFAULT_CONNECTION_LIMITS } = await import('../src/connection-limits.js');
    const schema = z.object(serviceConfigShape);
    const defaults = parseConfig(schema, {});
    expect(defaults).toEqual({
      LOG_LEVEL: 'info',
      CORS_ORIGINS: ['*'],
      RATE_LIMIT_PER_MINUTE: 120,
      API_KEY_RATE_LIMIT_PER_MINUTE: 1200,
      API_KEYS: [],
      TRUST_PROXY: false,
      HTTP_HEADERS_TIMEOUT_SECONDS: 10,
      HTTP_REQUEST_TIMEOUT_SECONDS: 30,
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 65,
      HTTP_MAX_REQUESTS_PER_CONNECTION: 1000,
      HTTP_MAX_CONNECTIONS: 4096,
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: 256,
      HTTP_HARD_MAX_CONNECTIONS: 8192,
    });
    expect(connectionLimitsFromConfig(defaults)).toEqual(DEFAULT_CONNECTION_LIMITS);
    const set = parseConfig(schema, {
      CORS_ORIGINS: 'https://a.example, https://b.example',
      API_KEYS: 'k1,,k2',
      TRUST_PROXY: '2',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(set).toMatchObject({
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      API_KEYS: ['k1', 'k2'],
      TRUST_PROXY: 2,
    });
    expect(rateLimitFromConfig(set, undefined, 'rl:')).toMatchObject({
      limit: 120,
      apiKeyLimit: 1200,
      prefix: 'rl:',
    });
    expect(() =>
      parseConfig(schema, { RATE_LIMIT_PER_MINUTE: '0', REDIS_URL: 'http://x' }),
    ).toThrow(
      expect.objectContaining({
        issues: expect.arrayContaining([
          expect.stringMatching(/^RATE_LIMIT_PER_MINUTE: /),
          expect.stringMatching(/^REDIS_URL: /),
        ]),
      }),
    );
  });
});

describe('exactInteger', () => {
  it('keeps safe integers as numbers and larger ones as bigints, both written exactly', async () => {
    const { exactInteger } = await import('../src/json.js');
    expect(exactInteger(123n)).toBe(123);
    expect(exactInteger(9007199254740991n)).toBe(9007199254740991);
    expect(exactInteger(9007199254740992n)).toBe(9007199254740992n);
    expect(exactInteger(-9007199254740993n)).toBe(-9007199254740993n);
    expect(stringifyJson({ a: exactInteger(5n), b: exactInteger(2n ** 64n) })).toBe(
      '{"a":5,"b":18446744073709551616}',
    );
  });
});
