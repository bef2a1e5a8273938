/**
 * The ABI pinned to the deployed CashmereCCTP (cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`,
 * and the structs cashmere-prod/cashmere-agent-sdk `src/chains/evm.ts` encodes): function
 * signatures, so selectors, and the event.
 */
import { describe, expect, it } from '@jest/globals';
import { toEventSignature, toFunctionSelector, toFunctionSignature } from 'viem';
import { MAINNET_EVM_DEPLOYMENTS, cashmereCctpAbi } from '../src/index.js';

const V1 = '(uint64,uint128,uint64,uint128,uint32,bytes32,bytes32,bool,bytes)';
const V2 = '(uint64,uint256,uint128,uint64,uint128,uint32,uint32,bytes32,bytes32,bool,bytes,bytes)';
const PERMIT = '(uint256,uint256,bytes)';

describe('cashmereCctpAbi', () => {
  it('has the deployed transfer functions and event', () => {
    const signatures = cashmereCctpAbi
      .filter((i) => i.type === 'function')
      .map((i) => toFunctionSignature(i));
    expect(signatures).toEqual(
      expect.arrayContaining([
        `transfer(${V1})`,
        `transferV2(${V2})`,
        `transferWithPermit(${V1},${PERMIT})`,
        `transferV2WithPermit(${V2},${PERMIT})`,
      ]),
    );
    expect(toFunctionSelector(`transfer(${V1})`)).toMatch(/^0x[0-9a-f]{8}$/);
    const event = cashmereCctpAbi.find((i) => i.type === 'event')!;
    expect(toEventSignature(event)).toBe(
      'CashmereTransfer(uint32,uint256,bytes32,bytes32,address,uint64,uint256,bool)',
    );
  });

  it('lists the agent SDK mainnet contracts (Ethereum, Arbitrum, HyperEVM)', () => {
    expect(MAINNET_EVM_DEPLOYMENTS[0]).toEqual({
      chainId: 1,
      cashmereCctp: '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6',
      usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    });
    expect(MAINNET_EVM_DEPLOYMENTS[3]!.cashmereCctp).toBe(
      '0x3412ef459221d1581a08dcD56Ee55B8FaeBf5eEA',
    );
    expect(MAINNET_EVM_DEPLOYMENTS[19]!.chainId).toBe(999);
  });
});
