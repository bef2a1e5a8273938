import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { envVariableRows, ownVariables, renderEnvTable } from '../src/env-docs.js';
import {
  envBoolean,
  envInteger,
  envJson,
  envList,
  envUrl,
  serviceConfigShape,
} from '../src/service-config.js';

describe('environment tables from the config schemas', () => {
  const shape = {
    PORT: envInteger(0, 65_535).default(3000).describe('HTTP port'),
    ON: envBoolean().default(true).describe('a switch'),
    LIST: envList().default([]).describe('a list'),
    URL: envUrl().optional().describe('an endpoint; unset = none'),
    MODE: z.enum(['a', 'b']).default('b').describe('a | b'),
    BPS: z
      .string()
      .regex(/^[0-9]+$/)
      .transform(BigInt)
      .meta({ type: 'integer' })
      .default(200n)
      .describe('basis points'),
    TEXT: z.string().prefault('1').describe('a decimal'),
    JSON: envJson(z.record(z.string(), z.string()), 'a JSON object').optional().describe('a map'),
    NEEDED: z.string().describe('must be set'),
  };

  it('reads description, type and default of each variable through the schema', () => {
    expect(envVariableRows(shape)).toEqual([
      { name: 'PORT', type: 'integer 0-65535', default: '`3000`', description: 'HTTP port' },
      { name: 'ON', type: 'boolean', default: '`true`', description: 'a switch' },
      { name: 'LIST', type: 'comma-separated list', default: 'none', description: 'a list' },
      { name: 'URL', type: 'URL', default: 'unset', description: 'an endpoint; unset = none' },
      { name: 'MODE', type: '`a`, `b`', default: '`b`', description: 'a | b' },
      { name: 'BPS', type: 'integer', default: '`200`', description: 'basis points' },
      { name: 'TEXT', type: 'text', default: '`1`', description: 'a decimal' },
      { name: 'JSON', type: 'JSON object', default: 'unset', description: 'a map' },
      { name: 'NEEDED', type: 'text', default: 'required', description: 'must be set' },
    ]);
  });

  it('refuses a variable without a description, naming every one', () => {
    expect(() =>
      envVariableRows({ A: z.string(), B: z.string().describe('b'), C: envInteger(0, 1) }),
    ).toThrow('environment variables without a .describe() text: A, C');
  });

  it('describes every shared variable', () => {
    expect(envVariableRows(serviceConfigShape).map((r) => r.name)).toEqual(
      Object.keys(serviceConfigShape),
    );
  });

  it("lists an app's own variables and the shared ones it redefines", () => {
    const app = {
      ...serviceConfigShape,
      RATE_LIMIT_PER_MINUTE: envInteger(1, 10).default(6).describe('another default'),
      PORT: envInteger(0, 65_535).default(3000).describe('HTTP port'),
    };
    expect(Object.keys(ownVariables(app))).toEqual(['RATE_LIMIT_PER_MINUTE', 'PORT']);
  });

  it('renders one markdown row per variable, pipes escaped', () => {
    const table = renderEnvTable(envVariableRows({ MODE: shape.MODE }));
    expect(table.split('\n')).toEqual([
      '| Variable | Type | Default | Meaning |',
      '| --- | --- | --- | --- |',
      '| `MODE` | `a`, `b` | `b` | a \\| b |',
      '',
    ]);
  });

  it('describes the fields of a JSON value as JSON: arrays, quoted enums and defaults', () => {
    const entry = z.object({
      name: z.string().describe('display name'),
      network: z.enum(['mainnet', 'testnet']).default('mainnet').describe('which feed'),
      urls: z.array(z.url()).default([]).describe('endpoints'),
      start: z.number().int().min(0).describe('first block'),
      depth: z
        .union([z.number().int().min(0).max(10), z.literal('finalized')])
        .default('finalized')
        .describe('finality'),
    });
    expect(envVariableRows(entry.shape, 'json')).toEqual([
      { name: 'name', type: 'text', default: 'required', description: 'display name' },
      {
        name: 'network',
        type: '`"mainnet"`, `"testnet"`',
        default: '`"mainnet"`',
        description: 'which feed',
      },
      { name: 'urls', type: 'array of URL', default: '`[]`', description: 'endpoints' },
      { name: 'start', type: 'integer >= 0', default: 'required', description: 'first block' },
      {
        name: 'depth',
        type: 'integer 0-10 or `"finalized"`',
        default: '`"finalized"`',
        description: 'finality',
      },
    ]);
    expect(renderEnvTable(envVariableRows({ name: entry.shape.name }, 'json'), 'Field')).toBe(
      '| Field | Type | Default | Meaning |\n| --- | --- | --- | --- |\n| `name` | text | required | display name |\n',
    );
  });
});
