/**
 * The ECDSA quote signature checked by real Solidity: QuoteVerifier.sol compiled with solc
 * (standard JSON input) and executed in @ethereumjs/evm. The contract rebuilds the digest with
 * abi.encodePacked for each packing and calls ecrecover.
 */
import { readFileSync } from 'node:fs';
import { createEVM, type EVM } from '@ethereumjs/evm';
import type { Address as EvmAddress } from '@ethereumjs/util';
import { compileSolidity, type CompiledContract } from '@ctss/test-support';
import {
  type Abi,
  type Hex,
  decodeFunctionResult,
  encodeFunctionData,
  hexToBytes,
  toHex,
} from 'viem';
import {
  type EcdsaQuoteFields,
  type QuotePacking,
  loadSecp256k1Signer,
  quoteDigest,
  signQuote,
} from '../src/index.js';
import { quoteBuilder } from './support/quote-builder.js';

function compile(): CompiledContract {
  const source = readFileSync(new URL('./fixtures/QuoteVerifier.sol', import.meta.url), 'utf8');
  return compileSolidity('QuoteVerifier.sol', source, 'QuoteVerifier');
}

const signer = loadSecp256k1Signer(
  '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63',
);
const otherSigner = loadSecp256k1Signer(
  '0xc87509a1c067bbde78beb793e6fa76530b6382a4c0241e5e4a9ec0a0f44dc0d3',
);

/** Base -> Arbitrum over CCTP v2 at the default minimum fee. */
const aQuote = quoteBuilder<EcdsaQuoteFields>({
  localDomain: 6,
  destinationDomain: 3,
  fee: 80_000n,
  deadline: 1_763_000_100n,
  isNative: false,
  cctpVersion: 2,
});

/** The quote fields in the order of QuoteVerifier.sol's parameters. */
const quoteArgs = (f: EcdsaQuoteFields): unknown[] => [
  f.localDomain,
  f.destinationDomain,
  f.fee,
  f.deadline,
  f.isNative,
  f.cctpVersion,
];

let evm: EVM;
let contract: EvmAddress;
let abi: Abi;

async function call(
  functionName: string,
  args: readonly unknown[],
): Promise<{ returnValue: Hex; reverted: boolean }> {
  const data = encodeFunctionData({ abi, functionName, args });
  const result = await evm.runCall({ to: contract, data: hexToBytes(data), gasLimit: 1_000_000n });
  return {
    returnValue: toHex(result.execResult.returnValue),
    reverted: result.execResult.exceptionError !== undefined,
  };
}

async function contractRecover(
  f: EcdsaQuoteFields,
  packing: QuotePacking,
  signature: Hex,
): Promise<string> {
  const functionName = packing === 'spec' ? 'recoverSpec' : 'recoverCompact';
  const { returnValue, reverted } = await call(functionName, [...quoteArgs(f), signature]);
  expect(reverted).toBe(false);
  return decodeFunctionResult({ abi, functionName, data: returnValue }) as string;
}

beforeAll(async () => {
  const compiled = compile(); // once per file: solc-js is the slow part
  abi = compiled.abi;
  evm = await createEVM();
  const deployed = await evm.runCall({ data: hexToBytes(compiled.bytecode), gasLimit: 5_000_000n });
  expect(deployed.execResult.exceptionError).toBeUndefined();
  contract = deployed.createdAddress!;
});

describe.each(['spec', 'compact'] as const)('QuoteVerifier.sol with the %s packing', (packing) => {
  it('rebuilds the same digest as quoteDigest', async () => {
    for (const f of [
      aQuote(),
      aQuote({ isNative: true, fee: 123_456_789_000_000_000n, cctpVersion: 1 }),
      aQuote({ localDomain: 0xffffffff, deadline: (1n << 64n) - 1n }),
    ]) {
      const functionName = packing === 'spec' ? 'digestSpec' : 'digestCompact';
      const { returnValue } = await call(functionName, quoteArgs(f));
      expect(returnValue).toBe(quoteDigest(f, packing));
    }
  });

  it('ecrecover returns the signer for a correct quote (v1 and v2, native and not)', async () => {
    for (const cctpVersion of [1, 2] as const) {
      for (const isNative of [false, true]) {
        const f = aQuote({ cctpVersion, isNative });
        await expect(contractRecover(f, packing, signQuote(f, packing, signer))).resolves.toBe(
          signer.address,
        );
      }
    }
  });

  it.each<[string, (f: EcdsaQuoteFields) => EcdsaQuoteFields]>([
    ['the wrong cctpVersion', (f) => ({ ...f, cctpVersion: f.cctpVersion === 2 ? 1 : 2 })],
    [
      'swapped domains',
      (f) => ({ ...f, localDomain: f.destinationDomain, destinationDomain: f.localDomain }),
    ],
    ['flipped isNative', (f) => ({ ...f, isNative: !f.isNative })],
    ['another fee', (f) => ({ ...f, fee: f.fee + 1n })],
    ['another deadline', (f) => ({ ...f, deadline: f.deadline + 1n })],
  ])('does not recover the signer when the quote is presented with %s', async (_name, tamper) => {
    const f = aQuote();
    const signature = signQuote(f, packing, signer);
    const recovered = await contractRecover(tamper(f), packing, signature);
    expect(recovered).not.toBe(signer.address);
  });

  it("does not recover the signer from the other packing's signature", async () => {
    const f = aQuote();
    const other = packing === 'spec' ? 'compact' : 'spec';
    await expect(contractRecover(f, packing, signQuote(f, other, signer))).resolves.not.toBe(
      signer.address,
    );
  });
});

describe('QuoteVerifier.requireSignerSpec (revert like a transfer contract)', () => {
  const args = (f: EcdsaQuoteFields, signature: Hex, expected: string): unknown[] => [
    ...quoteArgs(f),
    signature,
    expected,
  ];

  it('passes for the right signer and reverts for another signer or a tampered quote', async () => {
    const f = aQuote();
    const signature = signQuote(f, 'spec', signer);
    await expect(
      call('requireSignerSpec', args(f, signature, signer.address)),
    ).resolves.toMatchObject({ reverted: false });
    await expect(
      call('requireSignerSpec', args(f, signQuote(f, 'spec', otherSigner), signer.address)),
    ).resolves.toMatchObject({ reverted: true });
    await expect(
      call('requireSignerSpec', args({ ...f, isNative: true }, signature, signer.address)),
    ).resolves.toMatchObject({ reverted: true });
    await expect(
      call('requireSignerSpec', args(f, signature.slice(0, 130) as Hex, signer.address)),
    ).resolves.toMatchObject({ reverted: true });
  });
});
