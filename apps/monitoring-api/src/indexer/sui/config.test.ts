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

  it('defaults mainnet packages to the documented addresses and requires them on testnet', () => {
    // docs/indexer.md "Sui and Aptos", table of mainnet defaults: cashmere-prod/cashmere-agent-sdk
    // src/constants.ts (SUI_CASHMERE_PACKAGE, SUI_TMM_PACKAGE, APTOS_TRANSFER_MODULE) and Circle's
    // Bridge Kit (@circle-fin/bridge-kit 1.15.1 chains.mjs, chains Sui and Aptos, cctp.contracts.v1).
    const minimalSui = { name: 'sui', graphqlUrl: sui.graphqlUrl, startCheckpoint: 0 };
    const minimalAptos = {
      name: 'aptos',
      indexerUrl: aptos.indexerUrl,
      restUrl: aptos.restUrl,
      startVersion: 0,
    };
    const config = loadIndexerConfig({
      ...base,
      INDEXER_SUI_CHAINS: JSON.stringify([minimalSui]),
      INDEXER_APTOS_CHAINS: JSON.stringify([minimalAptos]),
    });
    expect(config.INDEXER_SUI_CHAINS[0]).toMatchObject({
      transferPackages: ['0xdf37112aacb7d3535f7b3b754b9a7b9fa1a6b3a756288dc734522c603c6f11a4'],
      tokenMessengerMinterPackage:
        '0x2aa6c5d56376c371f88a6cc42e852824994993cb9bab8d3e6450cbe3cb32b94e',
      messageTransmitterPackage:
        '0x08d87d37ba49e785dde270a83f8e979605b03dc552b5548f26fdf2f49bf7ed1b',
    });
    expect(config.INDEXER_APTOS_CHAINS[0]).toMatchObject({
      transferModules: ['0xe49afb1896889e3e1dd7bcbb9e31d1df8221899d3d368e98588ac6b4d84b136d'],
      tokenMessengerMinter: '0x9bce6734f7b63e835108e3bd8c36743d4709fe435f44791918801d0989640a9d',
      messageTransmitter: '0x177e17751820e4b4371873ca8c30279be63bdea63b88ed0f2239c2eea10f1772',
    });
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_SUI_CHAINS: JSON.stringify([{ ...minimalSui, network: 'testnet' }]),
      }),
    ).toThrow(/transferPackages, tokenMessengerMinterPackage and messageTransmitterPackage/);
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_APTOS_CHAINS: JSON.stringify([{ ...minimalAptos, network: 'testnet' }]),
      }),
    ).toThrow(/transferModules, tokenMessengerMinter and messageTransmitter/);
    // No public source gives the first checkpoint / version: still required.
    const { startCheckpoint: _c, ...noStart } = minimalSui;
    expect(() =>
      loadIndexerConfig({ ...base, INDEXER_SUI_CHAINS: JSON.stringify([noStart]) }),
    ).toThrow(/INDEXER_SUI_CHAINS/);
  });

  it('takes the endpoints from per-chain variables (Secrets) and names the one missing', () => {
    const { graphqlUrl: _g, ...suiWithout } = sui;
    const { indexerUrl: _i, restUrl: _r, ...aptosWithout } = aptos;
    const chains = {
      INDEXER_SUI_CHAINS: JSON.stringify([{ ...suiWithout, name: 'sui-main' }]),
      INDEXER_APTOS_CHAINS: JSON.stringify([aptosWithout]),
    };
    const config = loadIndexerConfig({
      ...base,
      ...chains,
      INDEXER_SUI_GRAPHQL_URL_SUI_MAIN: 'https://sui.example.com/graphql?key=k1',
      INDEXER_APTOS_INDEXER_URL_APTOS: ' https://aptos.example.com/v1/graphql ',
      INDEXER_APTOS_REST_URL_APTOS: 'https://aptos.example.com/v1/',
    });
    expect(config.INDEXER_SUI_CHAINS[0]!.graphqlUrl).toBe('https://sui.example.com/graphql?key=k1');
    expect(config.INDEXER_APTOS_CHAINS[0]).toMatchObject({
      indexerUrl: 'https://aptos.example.com/v1/graphql',
      restUrl: 'https://aptos.example.com/v1',
    });
    // A variable wins over the entry's own URL.
    const override = loadIndexerConfig({
      ...base,
      INDEXER_SUI_CHAINS: JSON.stringify([sui]),
      INDEXER_SUI_GRAPHQL_URL_SUI: 'http://127.0.0.1:9000/graphql',
    });
    expect(override.INDEXER_SUI_CHAINS[0]!.graphqlUrl).toBe('http://127.0.0.1:9000/graphql');

    const issuesOf = (env: Record<string, string>): string[] => {
      try {
        loadIndexerConfig({ ...base, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).issues;
      }
      throw new Error('accepted');
    };
    expect(issuesOf(chains)).toEqual([
      "INDEXER_SUI_GRAPHQL_URL_SUI_MAIN: no graphqlUrl for INDEXER_SUI_CHAINS chain sui-main (set it, or the entry's graphqlUrl)",
      "INDEXER_APTOS_INDEXER_URL_APTOS: no indexerUrl for INDEXER_APTOS_CHAINS chain aptos (set it, or the entry's indexerUrl)",
      "INDEXER_APTOS_REST_URL_APTOS: no restUrl for INDEXER_APTOS_CHAINS chain aptos (set it, or the entry's restUrl)",
    ]);
    const secret = 'ftp://user:s3cret@example.com';
    const bad = issuesOf({ ...chains, INDEXER_SUI_GRAPHQL_URL_SUI_MAIN: secret });
    expect(bad).toContain('INDEXER_SUI_GRAPHQL_URL_SUI_MAIN: must be an http(s) URL');
    expect(bad.join('\n')).not.toContain('s3cret');
  });
});
