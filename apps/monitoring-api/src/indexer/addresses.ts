/**
 * Address text of a bytes32 recipient by the destination's VM family (docs/indexer.md
 * "Record fields"), in the formats the feeds store: EVM `0x` + 40 hex (lower case), Solana
 * base58 of the 32 bytes, Sui and Aptos `0x` + 64 hex.
 */
import { DEFAULT_CHAINS, type VmFamily } from '@ctss/domain-types';
import { base58 } from '@scure/base';
import { hexToBytes, type Hex } from 'viem';

const VM_BY_DOMAIN = new Map<number, VmFamily>(DEFAULT_CHAINS.map((c) => [c.domain, c.vm]));

/** The VM family of a destination domain; any domain not in the registry is EVM (route ids). */
export function vmOfDomain(domain: number): VmFamily {
  return VM_BY_DOMAIN.get(domain) ?? 'evm';
}

/** A bytes32 (`0x` + 64 hex) as an address of `vm`. */
export function addressFromBytes32(value: Hex, vm: VmFamily): string {
  const hex = value.toLowerCase();
  switch (vm) {
    case 'evm':
      return `0x${hex.slice(-40)}`;
    case 'solana':
      return base58.encode(hexToBytes(value));
    case 'sui':
    case 'aptos':
      return hex;
  }
}

/** True when a bytes32 is all zero. */
export function isZero32(value: Hex): boolean {
  return /^0x0*$/.test(value);
}
