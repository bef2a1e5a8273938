/**
 * Wallet addresses per chain type: validation and the normalized key bindings and points are
 * stored under (so `0xAbC...` and `0xabc...` are one EVM wallet).
 */
import type { ChainType } from '@ctss/domain-types';
import { base58 } from '@scure/base';
import { getAddress } from 'viem';

/** A validated address: `key` for storage and comparison, `display` for responses. */
export interface WalletAddress {
  chainType: ChainType;
  /** EVM / Sui / Aptos: lower-case 0x hex (Aptos left-padded to 64 digits); Solana: base58 as given. */
  key: string;
  /** EVM: EIP-55 checksum; others: the key. */
  display: string;
}

/** Chain labels accepted in `GET /users?wallets=<address>_<chain>` (aliases of the domain aggregate keys). */
export const CHAIN_LABELS: Readonly<Record<string, ChainType>> = {
  evm: 'evm',
  solana: 'solana',
  sol: 'solana',
  sui: 'sui',
  aptos: 'aptos',
  apt: 'aptos',
};

function isBase58PublicKey(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return base58.decode(value).length === 32;
  } catch {
    return false;
  }
}

/**
 * Validates and normalizes `address` for `chainType`.
 *
 * @returns the normalized address, or undefined when it is not a well-formed address of that
 *          chain (EVM 20-byte hex; Solana base58 32-byte key; Sui 32-byte hex; Aptos 1-64 hex digits).
 */
export function parseWalletAddress(
  chainType: ChainType,
  address: string,
): WalletAddress | undefined {
  switch (chainType) {
    case 'evm':
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
      return { chainType, key: address.toLowerCase(), display: getAddress(address) };
    case 'solana':
      if (!isBase58PublicKey(address)) return undefined;
      return { chainType, key: address, display: address };
    case 'sui': {
      if (!/^0x[0-9a-fA-F]{64}$/.test(address)) return undefined;
      const key = address.toLowerCase();
      return { chainType, key, display: key };
    }
    case 'aptos': {
      if (!/^0x[0-9a-fA-F]{1,64}$/.test(address)) return undefined;
      const key = `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
      return { chainType, key, display: key };
    }
  }
}
