/**
 * Name resolution against local chains speaking the real protocols: an EVM JSON-RPC node running
 * a Universal Resolver contract (viem's getEnsAddress call shape) and a Solana JSON-RPC node
 * serving name-registry accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { HttpProblem } from '@ctss/server-kit';
import { base58 } from '@scure/base';
import { bytesToHex, encodeFunctionData, getAddress, type Address } from 'viem';
import { createNameResolver, type NameResolver } from '../../src/names/resolver.js';
import { NAME_PROGRAM_ID, getSolDomainKey } from '../../src/names/sns.js';
import { compileTestResolver } from './contracts.js';
import { startLocalEvm, type LocalEvm } from './local-evm.js';
import { startLocalSolana, type LocalSolana } from './local-solana.js';

/** EIP-137 namehash, written out here independently of viem. */
function namehash(name: string): Uint8Array {
  let node: Uint8Array = new Uint8Array(32);
  for (const label of name.split('.').reverse())
    node = keccak_256(concatBytes(node, keccak_256(utf8ToBytes(label))));
  return node;
}

/** DNS wire format of a name (RFC 1035 3.1): length-prefixed labels, then a zero byte. */
function dnsEncode(name: string): Uint8Array {
  return concatBytes(
    ...name
      .split('.')
      .map((l) => concatBytes(Uint8Array.of(utf8ToBytes(l).length), utf8ToBytes(l))),
    Uint8Array.of(0),
  );
}

const setAddrAbi = [
  {
    name: 'setAddr',
    type: 'function',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dnsName', type: 'bytes' },
      { name: 'node', type: 'bytes32' },
      { name: 'target', type: 'address' },
    ],
    outputs: [],
  },
] as const;

const ALICE_EVM: Address = getAddress('0x8ba1f109551bd432803012645ac136ddd64dba72');
const ALICE_SOL = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

function registryAccount(owner: Uint8Array): Uint8Array {
  const data = new Uint8Array(96 + 32);
  data.set(base58.decode('58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx'), 0);
  data.set(owner, 32);
  return data;
}

async function problemOf(promise: Promise<unknown>): Promise<HttpProblem> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HttpProblem) return err;
    throw err;
  }
  throw new Error('expected an HttpProblem');
}

describe('name resolution against local ENS and SNS nodes', () => {
  let chain: LocalEvm;
  let solana: LocalSolana;
  let resolverAddress: `0x${string}`;
  let now = 1_000_000;
  let names: NameResolver;

  beforeAll(async () => {
    chain = await startLocalEvm();
    solana = await startLocalSolana();
    resolverAddress = await chain.deploy(compileTestResolver());
    for (const [name, target] of [
      ['alice.eth', ALICE_EVM],
      ['pay.alice.eth', ALICE_EVM],
    ] as const) {
      await chain.send(
        resolverAddress,
        encodeFunctionData({
          abi: setAddrAbi,
          functionName: 'setAddr',
          args: [bytesToHex(dnsEncode(name)), bytesToHex(namehash(name)), target],
        }),
      );
    }
    solana.setAccount(
      getSolDomainKey('alice.sol'),
      registryAccount(base58.decode(ALICE_SOL)),
      NAME_PROGRAM_ID,
    );
    solana.setAccount(
      getSolDomainKey('pay.alice.sol'),
      registryAccount(base58.decode(ALICE_SOL)),
      NAME_PROGRAM_ID,
    );
    solana.setAccount(
      getSolDomainKey('orphan.sol'),
      registryAccount(new Uint8Array(32)),
      NAME_PROGRAM_ID,
    );
    solana.setAccount(
      getSolDomainKey('impostor.sol'),
      registryAccount(base58.decode(ALICE_SOL)),
      '11111111111111111111111111111111',
    );
    names = createNameResolver(
      {
        ETH_RPC_URL: chain.url,
        ENS_UNIVERSAL_RESOLVER: resolverAddress,
        SOLANA_RPC_URL: solana.url,
        NAME_CACHE_TTL_SECONDS: 60,
        NAME_RPC_TIMEOUT_MS: 2_000,
      },
      { now: () => now },
    );
  }, 60_000);

  afterAll(async () => {
    await chain.close();
    await solana.close();
  });

  it.each([
    ['.eth name (any case)', 'Alice.ETH', 'alice.eth', 'ens', 'pay.alice.eth', ALICE_EVM],
    ['.sol name or subdomain', 'ALICE.sol', 'alice.sol', 'sns', 'pay.alice.sol', ALICE_SOL],
  ])(
    'when a registered %s is resolved, then its owner comes back (EVM checksummed)',
    async (_what, asked, name, kind, subdomain, owner) => {
      await expect(names.resolve(asked)).resolves.toEqual({ name, kind, address: owner });
      await expect(names.resolve(subdomain)).resolves.toMatchObject({ address: owner });
    },
  );

  it('when a .eth name has no resolver record, then it is a 400 INVALID_NAME', async () => {
    const problem = await problemOf(names.resolve('bob.eth'));
    expect([problem.status, problem.code]).toEqual([400, 'INVALID_NAME']);
  });

  it('when a .eth name is malformed, then it is a 400 INVALID_NAME', async () => {
    for (const bad of [
      'a..eth',
      '.eth',
      'white space.eth',
      `${'x'.repeat(300)}.eth`,
      'al!ce.eth',
    ]) {
      const problem = await problemOf(names.resolve(bad));
      expect([bad, problem.status, problem.code]).toEqual([bad, 400, 'INVALID_NAME']);
    }
  });

  it('when a .sol account is missing, has no owner, or belongs to another program, then it is a 400 INVALID_NAME', async () => {
    for (const name of ['nobody.sol', 'orphan.sol', 'impostor.sol', 'a.b.c.sol']) {
      const problem = await problemOf(names.resolve(name));
      expect([name, problem.status, problem.code]).toEqual([name, 400, 'INVALID_NAME']);
    }
  });

  it('when a name was resolved recently, then it is served from the cache until the TTL passes', async () => {
    const before = solana.calls();
    await names.resolve('alice.sol');
    await names.resolve('alice.sol');
    expect(solana.calls()).toBe(before);
    now += 61_000;
    await names.resolve('alice.sol');
    expect(solana.calls()).toBe(before + 1);
  });

  it('when the value is not a .eth or .sol name, then isName is false and resolve refuses it', async () => {
    expect(names.isName('0x8ba1f109551bd432803012645ac136ddd64dba72')).toBe(false);
    expect(names.isName('Alice.Eth')).toBe(true);
    const problem = await problemOf(names.resolve('alice.com'));
    expect(problem.code).toBe('INVALID_NAME');
  });

  it('when no RPC is configured for the chain, then names of it are a 400 INVALID_NAME saying so', async () => {
    const unconfigured = createNameResolver({});
    const problem = await problemOf(unconfigured.resolve('alice.eth'));
    expect([problem.status, problem.code, problem.detail]).toEqual([
      400,
      'INVALID_NAME',
      '.eth name resolution is not configured',
    ]);
    expect((await problemOf(unconfigured.resolve('alice.sol'))).detail).toBe(
      '.sol name resolution is not configured',
    );
  });

  it('when the RPC cannot be reached, then it is a 503 SERVICE_UNAVAILABLE (the name may be valid)', async () => {
    const down = createNameResolver({
      ETH_RPC_URL: 'http://127.0.0.1:9',
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      NAME_RPC_TIMEOUT_MS: 500,
    });
    for (const name of ['alice.eth', 'alice.sol']) {
      const problem = await problemOf(down.resolve(name));
      expect([name, problem.status, problem.code]).toEqual([name, 503, 'SERVICE_UNAVAILABLE']);
    }
  });
});
