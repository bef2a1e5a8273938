import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@ctss/server-kit';
import { loadIndexerConfig } from '../config.js';

const base = { DATABASE_URL: 'postgres://db/x' };
const sui = {
  name: 'sui',
  graphqlUrl: 'https://graphql.mainnet.sui.io/graphql',
  transferPackages: ['0xdf37112aacb7d3535f7b3b754b9a7b9fa1a6b3a756288dc734522c603c6f11a4'],
  tokenMessengerMinterPackage: '0x2aa6c5d56376c371f88a6cc42e852824994993cb9bab8d3e6450cbe3cb32b94e',
  messageTransmitterPackage: '0x0A',
  startCheckpoint: 1_000,
};
const aptos = {
  name: 'aptos',
  indexerUrl: 'https://api.mainnet.aptoslabs.com/v1/graphql',
  restUrl: 'https://api.mainnet.aptoslabs.com/v1/',
  transferModules: ['0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d'],
  tokenMessengerMinter: '0xb',
  messageTransmitter: '0xc',
  startVersion: 5,
};

describe('Sui and Aptos chain configuration (docs/indexer.md "Sui and Aptos")', () => {
  it('applies the documented defaults and writes ids as 0x + 64 hex', () => {
    const config = loadIndexerConfig({
      ...base,
      INDEXER_SUI_CHAINS: JSON.stringify([sui]),
      INDEXER_APTOS_CHAINS: JSON.stringify([aptos]),
    });
    expect(config.INDEXER_SUI_CHAINS[0]).toMatchObject({
      network: 'mainnet',
      domain: 8,
      pollIntervalMs: 2000,
      maxCheckpointRange: 10_000,
      pageSize: 50,
      messageTransmitterPackage: `0x${'0'.repeat(62)}0a`,
    });
    expect(config.INDEXER_APTOS_CHAINS[0]).toMatchObject({
      domain: 9,
      restUrl: 'https://api.mainnet.aptoslabs.com/v1',
      tokenMessengerMinter: `0x${'0'.repeat(63)}b`,
      pageSize: 100,
    });
  });

  it('stops at start-up on a bad entry or a second chain of one network and domain', () => {
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_SUI_CHAINS: JSON.stringify([{ ...sui, pageSize: 51 }]),
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_APTOS_CHAINS: JSON.stringify([{ ...aptos, transferModules: ['0xzz'] }]),
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_SUI_CHAINS: JSON.stringify([sui]),
        INDEXER_APTOS_CHAINS: JSON.stringify([{ ...aptos, domain: 8 }]),
      }),
    ).toThrow(/one chain per network and domain/);
  });
});
