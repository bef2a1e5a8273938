import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseConfig } from '@ctss/server-kit';
import { ConfigSchema, pipelineLanes } from './config.js';

describe('ConfigSchema', () => {
  it('when the environment is empty, then every default of the README applies', () => {
    const config = parseConfig(ConfigSchema, {});
    expect(config).toMatchObject({
      PORT: 3000,
      LOG_LEVEL: 'info',
      DATABASE_READ_URLS: [],
      DATABASE_POOL_MAX: 10,
      CACHE_TTL_SECONDS: 30,
      CORS_ORIGINS: ['*'],
      RATE_LIMIT_PER_MINUTE: 600,
      API_KEY_RATE_LIMIT_PER_MINUTE: 6000,
      TRUST_PROXY: false,
      API_KEYS: [],
      NONCE_TTL_SECONDS: 300,
      USERNAME_SUFFIX: '.ctss',
      EMBEDDED_SEED: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('when values are given, then they are parsed into their types', () => {
    const config = parseConfig(ConfigSchema, {
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/app',
      DATABASE_READ_URLS: 'postgres://u@r1/app, postgresql://u@r2/app',
      CACHE_TTL_SECONDS: '0',
      CORS_ORIGINS: 'https://a.example,https://b.example',
      TRUST_PROXY: '2',
      API_KEYS: 'k1,k2',
      EMBEDDED_SEED: 'false',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_READ_URLS: ['postgres://u@r1/app', 'postgresql://u@r2/app'],
      CACHE_TTL_SECONDS: 0,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      TRUST_PROXY: 2,
      API_KEYS: ['k1', 'k2'],
      EMBEDDED_SEED: false,
    });
  });

  it('when values are present but invalid, then every bad variable is named and no value is echoed', () => {
    let error: unknown;
    try {
      parseConfig(ConfigSchema, {
        PORT: 'eighty',
        DATABASE_URL: 'mysql://secret@db/app',
        DATABASE_READ_URLS: 'postgres://ok/app,redis://nope',
        REDIS_URL: 'http://cache',
        RATE_LIMIT_PER_MINUTE: '0',
        USERNAME_SUFFIX: 'ctss',
        LEADERBOARD_COUNT_TTL_SECONDS: '-1',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'DATABASE_READ_URLS',
      'REDIS_URL',
      'RATE_LIMIT_PER_MINUTE',
      'USERNAME_SUFFIX',
      'LEADERBOARD_COUNT_TTL_SECONDS',
    ]) {
      expect(issues).toContain(name);
    }
    expect(issues).not.toContain('secret');
  });

  it('when DATABASE_PIPELINE_LANES is absent, then 2 lanes, fewer in a pool of 2 or 1', () => {
    const lanes = (env: Record<string, string>) => pipelineLanes(parseConfig(ConfigSchema, env));
    expect(lanes({})).toBe(2);
    expect(lanes({ DATABASE_POOL_MAX: '2' })).toBe(1);
    expect(lanes({ DATABASE_POOL_MAX: '1' })).toBe(0);
    expect(lanes({ DATABASE_POOL_MAX: '20', DATABASE_PIPELINE_LANES: '6' })).toBe(6);
    expect(lanes({ DATABASE_PIPELINE_LANES: '0' })).toBe(0);
  });

  it('when DATABASE_PIPELINE_LANES is not below DATABASE_POOL_MAX, then it is refused', () => {
    expect(() =>
      parseConfig(ConfigSchema, { DATABASE_POOL_MAX: '2', DATABASE_PIPELINE_LANES: '2' }),
    ).toThrow(/DATABASE_PIPELINE_LANES: must be less than DATABASE_POOL_MAX \(2\)/);
    expect(() => parseConfig(ConfigSchema, { DATABASE_PIPELINE_LANES: 'two' })).toThrow(
      /DATABASE_PIPELINE_LANES/,
    );
  });
});
