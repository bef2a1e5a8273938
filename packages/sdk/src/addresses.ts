/**
 * Known mainnet addresses, from cashmere-prod/cashmere-agent-sdk `src/constants.ts`
 * (`CASHMERE_CCTP_ADDRESSES`, `USDC_ADDRESSES`, `EVM_CHAIN_IDS`, `SOLANA_USDC_MINT`), keyed by CCTP
 * domain. Test chains pass their own addresses instead.
 */
import type { Address } from 'viem';

/** One EVM chain's deployment: its EIP-155 chain id, the CashmereCCTP contract and USDC. */
export interface EvmDeployment {
  readonly chainId: number;
  readonly cashmereCctp: Address;
  readonly usdc: Address;
}

/** CashmereCCTP and USDC on each EVM mainnet, by CCTP domain. */
export const MAINNET_EVM_DEPLOYMENTS: Readonly<Record<number, EvmDeployment>> = {
  0: {
    chainId: 1,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  },
  1: {
    chainId: 43114,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
  },
  2: {
    chainId: 10,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
  },
  3: {
    chainId: 42161,
    cashmereCctp: '0x3412ef459221d1581a08dcD56Ee55B8FaeBf5eEA',
    usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  },
  6: {
    chainId: 8453,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  },
  7: {
    chainId: 137,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  },
  10: {
    chainId: 130,
    cashmereCctp: '0xd002a7172Ac6f90657FCb918B3f7e36372a4bA80',
    usdc: '0x078D782b760474a361dDA0AF3839290b0EF57AD6',
  },
  11: {
    chainId: 59144,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x176211869cA2b568f2A7D4EE941E073a821EE1ff',
  },
  13: {
    chainId: 146,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  },
  14: {
    chainId: 480,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x79A02482A880bCe3F13E09da970dC34dB4cD24D1',
  },
  15: {
    chainId: 143,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0x754704Bc059F8C67012fEd69BC8A327a5aafb603',
  },
  16: {
    chainId: 1329,
    cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
    usdc: '0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392',
  },
  19: {
    chainId: 999,
    cashmereCctp: '0x15b2810232ec96ff083ca6d8b785cb930d241d83',
    usdc: '0xb88339CB7199b77E23DB6E890353E22632Ba630f',
  },
};

/** USDC mint on Solana mainnet (base58). */
export const SOLANA_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** SPL Token program id (base58). */
export const SOLANA_TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** Associated Token Account program id (base58). */
export const SOLANA_ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** Base URLs of the public services the SDK defaults to. */
export const CIRCLE_IRIS_MAINNET_URL = 'https://iris-api.circle.com';
