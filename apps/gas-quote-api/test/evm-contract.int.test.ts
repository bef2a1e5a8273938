/**
 * A quote fetched over real HTTP from the running app is accepted by a Solidity transfer verifier
 * (compiled with solc, executed in @ethereumjs/evm) that takes the quote as the transfer contracts
 * do, for v1 and v2, native and not, both packings; an expired deadline, a flipped isNative, the
 * other entrypoint or other domains revert. With TEST_GAS_QUOTE_URL set (e.g.
 * http://127.0.0.1:3001), the quotes come from that running service instead, and the verifier
 * trusts the signer its /health reports.
 */
import { readFileSync } from 'node:fs';
import { createEVM, type EVM, type EVMRunCallOpts } from '@ethereumjs/evm';
import { createZeroAddress, type Address as EvmAddress } from '@ethereumjs/util';
import { compileSolidity, type CompiledContract } from '@ctss/test-support';
import { encodeAbiParameters, encodeFunctionData, hexToBytes, type Abi, type Hex } from 'viem';
import { EcdsaQuote } from '@ctss/domain-types';
import { buildTestApp, testEcdsaSigner, type TestApp } from './support/app.js';

function compile(): CompiledContract {
  const source = readFileSync(new URL('./fixtures/TransferVerifier.sol', import.meta.url), 'utf8');
  return compileSolidity('TransferVerifier.sol', source, 'TransferVerifier');
}

/** A block header at `timestamp` (seconds), the only field the verifier reads. */
function blockAt(timestamp: bigint): NonNullable<EVMRunCallOpts['block']> {
  return {
    header: {
      number: 1n,
      coinbase: createZeroAddress(),
      timestamp,
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 30_000_000n,
      baseFeePerGas: 0n,
      slotNumber: 0n,
      getBlobGasPrice: () => undefined,
    },
  };
}

let compiled: { abi: Abi; bytecode: Hex };
let evm: EVM;
let t: TestApp | undefined;
let baseUrl: string;
let signerAddress: Hex = testEcdsaSigner.address;
const deployed = new Map<string, EvmAddress>();

/** Deploys (once) the verifier of origin `localDomain` with `packing`. */
async function verifier(localDomain: number, packing: 'spec' | 'compact'): Promise<EvmAddress> {
  const key = `${localDomain}:${packing}`;
  const existing = deployed.get(key);
  if (existing) return existing;
  const args = encodeAbiParameters(
    [{ type: 'uint32' }, { type: 'address' }, { type: 'bool' }],
    [localDomain, signerAddress, packing === 'compact'],
  );
  const result = await evm.runCall({
    data: hexToBytes(`${compiled.bytecode}${args.slice(2)}`),
    gasLimit: 5_000_000n,
  });
  expect(result.execResult.exceptionError).toBeUndefined();
  deployed.set(key, result.createdAddress!);
  return result.createdAddress!;
}

interface Presented {
  entry: 'transfer' | 'transferV2';
  fee: bigint;
  deadline: bigint;
  isNative: boolean;
  destinationDomain: number;
  signature: Hex;
}

/** Calls the verifier at block time `timestamp`; resolves to whether the call succeeded. */
async function accepts(contract: EvmAddress, p: Presented, timestamp: bigint): Promise<boolean> {
  const data = encodeFunctionData({
    abi: compiled.abi,
    functionName: p.entry,
    args: [p.fee, p.deadline, p.isNative, p.destinationDomain, p.signature],
  });
  const result = await evm.runCall({
    to: contract,
    data: hexToBytes(data),
    gasLimit: 1_000_000n,
    block: blockAt(timestamp),
  });
  return result.execResult.exceptionError === undefined;
}

/** Fetches a quote from the listening app over HTTP. */
async function fetchQuote(
  local: number,
  dest: number,
  isV2: boolean,
  isNative: boolean,
): Promise<EcdsaQuote> {
  const res = await fetch(
    `${baseUrl}/getEcdsaSig_native?localDomain=${local}&destinationDomain=${dest}&isV2=${isV2}&isNative=${isNative}`,
  );
  expect(res.status).toBe(200);
  return EcdsaQuote.parse(await res.json());
}

const present = (q: EcdsaQuote, dest: number): Presented => ({
  entry: q.cctpVersion === 2 ? 'transferV2' : 'transfer',
  fee: BigInt(q.fee),
  deadline: BigInt(q.deadline),
  isNative: q.isNative,
  destinationDomain: dest,
  signature: q.signature as Hex,
});

beforeAll(async () => {
  compiled = compile(); // solc-js is the slow part: once per file
  evm = await createEVM();
  const external = process.env.TEST_GAS_QUOTE_URL;
  if (external) {
    baseUrl = external.replace(/\/+$/, '');
    signerAddress = ((await (await fetch(`${baseUrl}/health`)).json()) as { ecdsaSigner: Hex })
      .ecdsaSigner;
    return;
  }
  // Base (6) signs with the compact packing; every other origin with the spec packing.
  t = buildTestApp({ env: { QUOTE_PACKING_6: 'compact' } });
  await t.snapshotFeeder.refresh();
  baseUrl = await t.listen();
});
afterAll(async () => {
  await t?.close();
});

/** The block time at issuance: deadline - 100 s. */
const issuedAt = (p: Presented) => p.deadline - 100n;

// A running service signs with its own packing configuration: only the spec cases apply to it.
const cases = process.env.TEST_GAS_QUOTE_URL
  ? ([['spec', 0, 3]] as const)
  : ([
      ['spec', 0, 3],
      ['compact', 6, 0],
    ] as const);
describe.each(cases)('a %s-packing verifier on domain %i', (packing, local, dest) => {
  it.each([
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ])(
    'accepts a fresh quote (isV2=%s, isNative=%s) until its deadline and not after',
    async (isV2, isNative) => {
      const contract = await verifier(local, packing);
      const quote = await fetchQuote(local, dest, isV2, isNative);
      const p = present(quote, dest);
      await expect(accepts(contract, p, issuedAt(p))).resolves.toBe(true);
      await expect(accepts(contract, p, p.deadline)).resolves.toBe(true);
      await expect(accepts(contract, p, p.deadline + 1n)).resolves.toBe(false);
    },
  );

  it('reverts for a flipped isNative, the other entrypoint, another destination or another origin', async () => {
    const contract = await verifier(local, packing);
    const p = present(await fetchQuote(local, dest, true, false), dest);
    await expect(accepts(contract, p, issuedAt(p))).resolves.toBe(true);
    await expect(accepts(contract, { ...p, isNative: true }, issuedAt(p))).resolves.toBe(false);
    await expect(accepts(contract, { ...p, entry: 'transfer' }, issuedAt(p))).resolves.toBe(false);
    await expect(accepts(contract, { ...p, destinationDomain: 2 }, issuedAt(p))).resolves.toBe(
      false,
    );
    await expect(accepts(contract, { ...p, fee: p.fee - 1n }, issuedAt(p))).resolves.toBe(false);
    const otherOrigin = await verifier(10, packing);
    await expect(accepts(otherOrigin, p, issuedAt(p))).resolves.toBe(false);
  });
});

it('a spec-packing quote is rejected by a compact verifier of the same origin', async () => {
  const p = present(await fetchQuote(0, 3, true, false), 3);
  await expect(accepts(await verifier(0, 'spec'), p, issuedAt(p))).resolves.toBe(true);
  await expect(accepts(await verifier(0, 'compact'), p, issuedAt(p))).resolves.toBe(false);
});
