/**
 * The devnet transfer contract has the deployed `CashmereCCTP` ABI: the four transfer entry
 * points' selectors, every function selector, event topic and custom-error selector computed
 * from the Solidity signatures copied from cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`
 * (and the OpenZeppelin v5 AccessControl it inherits) match the compiled devnet ABI item for
 * item, with the same parameter names, struct fields, indexed flags and mutability; and the
 * exported `cashmereCctpAbi` is the compiler's output.
 */
import { describe, expect, it } from '@jest/globals';
import { parseAbi, toEventSelector, toFunctionSelector, type Abi, type AbiParameter } from 'viem';
import { cashmereCctpAbi } from './cashmere-abi.js';
import { CASHMERE_CCTP_SELECTORS, CASHMERE_CCTP_SIGNATURES } from './cashmere-signatures.js';
import { contract } from './cctp-chain.js';

/** Canonical signatures of the struct-taking entry points (structs as tuples, field order as deployed). */
const TRANSFER_PARAMS = '(uint64,uint128,uint64,uint128,uint32,bytes32,bytes32,bool,bytes)';
const TRANSFER_V2_PARAMS =
  '(uint64,uint256,uint128,uint64,uint128,uint32,uint32,bytes32,bytes32,bool,bytes,bytes)';
const PERMIT_PARAMS = '(uint256,uint256,bytes)';

type Item = Abi[number];

function stripInternalType(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInternalType);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'internalType')
        .map(([k, v]) => [k, stripInternalType(v)]),
    );
  }
  return value;
}

/** A parameter as the ABI exposes it; event parameters always carry `indexed` (viem omits false). */
function param(p: AbiParameter, ofEvent = false): unknown {
  return {
    name: p.name ?? '',
    type: p.type,
    ...(ofEvent ? { indexed: 'indexed' in p && p.indexed === true } : {}),
    ...('components' in p ? { components: p.components.map((c) => param(c)) } : {}),
  };
}

/** An item's selector (4 bytes for functions and errors, topic0 for events), or undefined. */
function selectorOf(item: Item): string | undefined {
  if (item.type === 'function') return toFunctionSelector(item);
  // Error selectors are hashed as function selectors; these errors take elementary types only.
  if (item.type === 'error')
    return toFunctionSelector(`${item.name}(${item.inputs.map((p) => p.type).join(',')})`);
  if (item.type === 'event') return toEventSelector(item);
  return undefined;
}

/** Items by selector, reduced to what the ABI exposes (names, types, indexed, mutability). */
function bySelector(abi: Abi): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const item of abi) {
    const selector = selectorOf(item);
    if (!selector) continue;
    out.set(selector, {
      type: item.type,
      name: 'name' in item ? item.name : undefined,
      inputs: 'inputs' in item ? item.inputs.map((p) => param(p, item.type === 'event')) : [],
      outputs: 'outputs' in item ? item.outputs.map((p) => param(p)) : [],
      stateMutability: 'stateMutability' in item ? item.stateMutability : undefined,
      anonymous: item.type === 'event' ? (item.anonymous ?? false) : undefined,
    });
  }
  return out;
}

const compiled = contract('CashmereCCTP').abi;
const reference = parseAbi(CASHMERE_CCTP_SIGNATURES);

describe('the devnet CashmereCCTP ABI', () => {
  it('has the deployed selectors of the four transfer entry points', () => {
    const canonical = {
      transfer: `transfer(${TRANSFER_PARAMS})`,
      transferV2: `transferV2(${TRANSFER_V2_PARAMS})`,
      transferWithPermit: `transferWithPermit(${TRANSFER_PARAMS},${PERMIT_PARAMS})`,
      transferV2WithPermit: `transferV2WithPermit(${TRANSFER_V2_PARAMS},${PERMIT_PARAMS})`,
    };
    expect(CASHMERE_CCTP_SELECTORS).toEqual({
      transfer: '0x51f9ec78',
      transferV2: '0x6827806f',
      transferWithPermit: '0x8f9fc08b',
      transferV2WithPermit: '0xbd8f5542',
    });
    for (const [name, signature] of Object.entries(canonical)) {
      const selector = toFunctionSelector(signature);
      expect(selector).toBe(CASHMERE_CCTP_SELECTORS[name as keyof typeof canonical]);
      const item = compiled.find(
        (i) => i.type === 'function' && toFunctionSelector(i) === selector,
      );
      expect(item).toMatchObject({ name, stateMutability: 'payable' });
    }
  });

  it('has every event topic and custom-error selector of the public signatures', () => {
    const topics = new Set(compiled.filter((i) => i.type === 'event').map(selectorOf));
    const errors = new Set(compiled.filter((i) => i.type === 'error').map(selectorOf));
    const events = CASHMERE_CCTP_SIGNATURES.filter((s) => s.startsWith('event '));
    const customErrors = CASHMERE_CCTP_SIGNATURES.filter((s) => s.startsWith('error '));
    expect(events).toHaveLength(10);
    expect(customErrors).toHaveLength(16);
    for (const s of events) expect([s, topics.has(toEventSelector(s))]).toEqual([s, true]);
    for (const s of customErrors) expect([s, errors.has(toFunctionSelector(s))]).toEqual([s, true]);
    expect(topics.size).toBe(events.length);
    expect(errors.size).toBe(customErrors.length);
    // The event the indexer decodes (docs/indexer.md "Events"), with its topic0 pinned.
    expect(
      toEventSelector(
        'CashmereTransfer(uint32,uint256,bytes32,bytes32,address,uint64,uint256,bool)',
      ),
    ).toBe(toEventSelector(events.find((s) => s.startsWith('event CashmereTransfer('))!));
  });

  it('matches the public signatures item for item (names, struct fields, indexed, mutability)', () => {
    const ours = bySelector(compiled);
    const theirs = bySelector(reference);
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [selector, item] of theirs) expect(ours.get(selector)).toEqual(item);
    // The deployed constructor: (tokenMessenger, tokenMessengerV2, usdc).
    expect(compiled.find((i) => i.type === 'constructor')).toMatchObject({
      inputs: [{ type: 'address' }, { type: 'address' }, { type: 'address' }],
      stateMutability: 'nonpayable',
    });
  });

  it('is exported as cashmereCctpAbi, the compiler output without internalType', () => {
    expect(cashmereCctpAbi).toEqual(stripInternalType(compiled));
    // The legacy-event variant exposes the same ABI.
    expect(stripInternalType(contract('CashmereCCTPLegacyEvent').abi)).toEqual(cashmereCctpAbi);
  });
});
