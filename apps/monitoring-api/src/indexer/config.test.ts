import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    expect(config.IRIS_RATE_PER_SECOND).toBe(10);
    expect(config.PORT).toBe(3010);
    // Base (domain 6): Circle's v1 and v2 contracts and native USDC by default
    // (https://developers.circle.com/cctp/references/contract-addresses).
    expect(config.INDEXER_CHAINS[0]).toMatchObject({
      network: 'mainnet',
      confirmations: 'finalized',
      maxBlockRange: 2000,
      tokenMessengers: [
        '0x1682ae6375c4e4a97e4b583bc394c861a46d8962',
        '0x28b5a0e9c621a5badaa536219b3a228c8168cf5d',
      ],
      messageTransmitters: [
        '0xad09780d193884d503182ad4588450c416d6f9d4',
        '0x81d40f21f12a8f0e3252bccb954d722d4c464b64',
      ],
      usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      transferContracts: ['0xd156ffb54871f4562744d6be5d6321b5bffca3b6'],
    });
  });

  it('takes RPC URLs from their own variable or a mounted file, and the chains from a file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'indexer-config-'));
    const { rpcUrls: _omitted, ...withoutRpc } = chain;
    const chainsFile = path.join(dir, 'chains.json');
    writeFileSync(
      chainsFile,
      JSON.stringify([withoutRpc, { ...withoutRpc, name: 'arb-one', domain: 3 }]),
    );
    const rpcFile = path.join(dir, 'rpc.json');
    writeFileSync(rpcFile, JSON.stringify({ 'arb-one': ['https://arb.example.com/key'] }));
    const config = loadIndexerConfig({
      ...base,
      INDEXER_CHAINS_FILE: chainsFile,
      INDEXER_RPC_URLS_FILE: rpcFile,
      INDEXER_RPC_URLS_BASE: 'https://a.example.com/k1, https://b.example.com/k2',
    });
    expect(config.INDEXER_CHAINS.map((c) => [c.name, c.rpcUrls])).toEqual([
      ['base', ['https://a.example.com/k1', 'https://b.example.com/k2']],
      ['arb-one', ['https://arb.example.com/key']],
    ]);
    expect(() =>
      loadIndexerConfig({ ...base, INDEXER_CHAINS: JSON.stringify([withoutRpc]) }),
    ).toThrow(/INDEXER_RPC_URLS_BASE/);
  });

  it('requires the Circle contracts of a chain without known defaults, and lets them be overridden', () => {
    const testnet = { ...chain, network: 'testnet' };
    expect(() => loadIndexerConfig({ ...base, INDEXER_CHAINS: JSON.stringify([testnet]) })).toThrow(
      /tokenMessengers, messageTransmitters and usdc/,
    );
    const own = {
      tokenMessengers: ['0x' + '11'.repeat(20)],
      messageTransmitters: ['0x' + '22'.repeat(20)],
      usdc: '0x' + '33'.repeat(20),
    };
    // Only what neither the entry nor a default gives is asked for.
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_CHAINS: JSON.stringify([{ ...testnet, usdc: own.usdc }]),
      }),
    ).toThrow(
      /no default Circle contracts for testnet domain 6: set tokenMessengers and messageTransmitters/,
    );
    const config = loadIndexerConfig({
      ...base,
      INDEXER_CHAINS: JSON.stringify([{ ...testnet, ...own }]),
    });
    expect(config.INDEXER_CHAINS[0]).toMatchObject(own);
  });

  it('treats an empty INDEXER_CHAINS as no chain and accepts the finalized tag', () => {
    expect(loadIndexerConfig({ ...base, INDEXER_CHAINS: '' }).INDEXER_CHAINS).toEqual([]);
    const config = loadIndexerConfig({
      ...base,
      INDEXER_CHAINS: JSON.stringify([{ ...chain, confirmations: 'finalized' }]),
    });
    expect(config.INDEXER_CHAINS[0]).toMatchObject({ family: 'evm', confirmations: 'finalized' });
  });

  it('parses a Solana cluster with mainnet programs by default, and names what a testnet one lacks', () => {
    const solana = { family: 'solana', name: 'solana', startSignature: undefined };
    const config = loadIndexerConfig({
      ...base,
      INDEXER_CHAINS: JSON.stringify([chain, solana]),
      INDEXER_RPC_URLS_SOLANA: 'http://127.0.0.1:8899',
    });
    expect(config.INDEXER_CHAINS[1]).toMatchObject({
      family: 'solana',
      domain: 5,
      network: 'mainnet',
      rpcUrls: ['http://127.0.0.1:8899'],
      transferProgram: '5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM',
      messageTransmitterV2: 'CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC',
      pollIntervalMs: 4_000,
      pageSize: 1_000,
    });
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_CHAINS: JSON.stringify([{ ...solana, network: 'testnet', rpcUrls: ['http://x'] }]),
      }),
    ).toThrow(/transferProgram, messageTransmitterV1/);
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_CHAINS: JSON.stringify([
          { ...solana, transferProgram: '0x12', rpcUrls: ['http://x'] },
        ]),
      }),
    ).toThrow(/base58 Solana address/);
    expect(() =>
      loadIndexerConfig({
        ...base,
        INDEXER_CHAINS: JSON.stringify([{ ...solana, family: 'sui' }]),
      }),
    ).toThrow(ConfigError);
  });

  it.each([
    ['not JSON', { INDEXER_CHAINS: '[{' }],
    [
      'a bad address',
      { INDEXER_CHAINS: JSON.stringify([{ ...chain, transferContracts: ['0x12'] }]) },
    ],
    ['two chains of one name', { INDEXER_CHAINS: JSON.stringify([chain, chain]) }],
    ["an Iris rate above Circle's 35/s", { IRIS_RATE_PER_SECOND: '36' }],
    [
      'two chains of one domain',
      { INDEXER_CHAINS: JSON.stringify([chain, { ...chain, name: 'base-2' }]) },
    ],
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
