/**
 * The percentage fee of an origin's transfer contract, read through viem over the chain's
 * JSON-RPC URL: `state()` of the deployed `CashmereCCTP` (cashmere-prod/contracts-prod
 * `evm/src/CashmereCCTP.sol`, the deployment with `uint64 amount` and `uint128 fee` in the
 * transfer parameters, whose external ABI packages/devnet pins), whose fourth member `feeBP` is
 * the fee in basis points of the transferred amount that the contract keeps on every transfer
 * (`getFee(amount, staticFee) = amount * feeBP / 10000 + staticFee`, `feeBP` at most 100).
 */
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import type { ContractFeeSource } from './types.js';

/** `state()` of the deployed CashmereCCTP: the `State` struct's members in declaration order. */
const STATE_ABI = parseAbi([
  'function state() view returns (address signer, uint32 nonce, uint32 maxUSDCGasDrop, uint16 feeBP, bool reentrancyLock, bool paused, uint128 maxNativeGasDrop, uint128 lastFeeWithdrawTimestamp)',
]);

/** Largest `feeBP` the deployed contract accepts (`setFeeBP` reverts above it): 1 %. */
const MAX_CONTRACT_FEE_BPS = 100;

/** Options of {@link createEvmContractFeeSource}. */
export interface EvmContractFeeSourceOptions {
  /** CCTP domain of the origin chain. */
  readonly domain: number;
  readonly rpcUrl: string;
  /** The CashmereCCTP contract on that chain. */
  readonly contract: Address;
  readonly timeoutMs: number;
}

/**
 * Builds a {@link ContractFeeSource} reading `state().feeBP` from `contract`.
 * @throws (from fetch) when the call fails (no contract at the address, RPC error, timeout) or
 *   the value is above the contract's own limit of 100 bps.
 */
export function createEvmContractFeeSource(
  options: EvmContractFeeSourceOptions,
): ContractFeeSource {
  const client = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
  });
  return {
    domain: options.domain,
    name: 'contract',
    async fetch() {
      const state = await client.readContract({
        address: options.contract,
        abi: STATE_ABI,
        functionName: 'state',
      });
      const feeBps = state[3];
      if (feeBps > MAX_CONTRACT_FEE_BPS) {
        throw new Error(
          `feeBP ${feeBps} of ${options.contract} is above the contract's limit of ${MAX_CONTRACT_FEE_BPS}`,
        );
      }
      return feeBps;
    },
  };
}
