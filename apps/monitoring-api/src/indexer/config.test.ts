import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@ctss/server-kit';
import { loadIndexerConfig } from './config.js';

const chain = {
  name: 'base',
  domain: 6,
  rpcUrls: ['https://rpc.example.com'],
  transferContracts: ['0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6'],
  startBlock: 100,
};
const base = { DATABASE_URL: 'postgres://db/x' };

describe('indexer configuration', () => {
  it('applies the documented defaults and lower-cases addresses', () => {
    const config = loadIndexerConfig({ ...base, INDEXER_CHAINS: JSON.stringify([chain]) });
    expect(config.IRIS_URL).toBe('https://iris-api.circle.com');
    expect(config.IRIS_RATE_PER_SECOND).toBe(5);
    expect(config.PORT).toBe(3010);
    expect(config.INDEXER_CHAINS[0]).toMatchObject({
      network: 'mainnet',
      confirmations: 12,
      maxBlockRange: 2000,
      messageTransmitters: [],
      transferContracts: ['0xd156ffb54871f4562744d6be5d6321b5bffca3b6'],
    });
  });

  it('treats an empty INDEXER_CHAINS as no chain and accepts the finalized tag', () => {
    expect(loadIndexerConfig({ ...base, INDEXER_CHAINS: '' }).INDEXER_CHAINS).toEqual([]);
    const config = loadIndexerConfig({
      ...base,
      INDEXER_CHAINS: JSON.stringify([{ ...chain, confirmations: 'finalized' }]),
    });
    expect(config.INDEXER_CHAINS[0]!.confirmations).toBe('finalized');
  });

  it.each([
    ['not JSON', { INDEXER_CHAINS: '[{' }],
    ['a chain without RPC URLs', { INDEXER_CHAINS: JSON.stringify([{ ...chain, rpcUrls: [] }]) }],
    [
      'a bad address',
      { INDEXER_CHAINS: JSON.stringify([{ ...chain, transferContracts: ['0x12'] }]) },
    ],
    ['two chains of one name', { INDEXER_CHAINS: JSON.stringify([chain, chain]) }],
    ['an Iris rate of 10/s', { IRIS_RATE_PER_SECOND: '10' }],
  ])('refuses %s, naming the variable', (_name, env) => {
    const error = (() => {
      try {
        loadIndexerConfig({ ...base, ...env });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.join('\n')).toContain(Object.keys(env)[0]);
  });

  it('requires DATABASE_URL', () => {
    expect(() => loadIndexerConfig({})).toThrow(/DATABASE_URL/);
  });
});
