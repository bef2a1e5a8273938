/**
 * Sending a planned transfer from a viem wallet: the USDC the contract pulls is covered by the
 * existing allowance, else by an EIP-2612 permit passed to `transferWithPermit` /
 * `transferV2WithPermit` (signed locally, no extra transaction), else by an `approve`; the call is
 * simulated first, so a revert (an expired quote, a wrong signature) surfaces before anything is
 * sent.
 */
import {
  domainSeparator,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { cashmereCctpAbi, usdcAbi } from './abi.js';
import { TransferInputError } from './errors.js';
import type { TransferPlan } from './transfer.js';

/** How the USDC allowance is obtained. */
export type ApprovalMode = 'auto' | 'permit' | 'approve';

/** Options of {@link sendTransfer}. */
export interface SendOptions {
  /** Reads (allowance, nonces, simulation, receipts) on the origin chain. */
  readonly publicClient: PublicClient;
  /** The CashmereCCTP contract on the origin chain. */
  readonly contract: Address;
  /** The origin's USDC (default: the contract's `usdc()`). */
  readonly usdc?: Address;
  /**
   * `auto` (default): the allowance if it covers the transfer, else a permit; `permit`: always a
   * permit; `approve`: an `approve` transaction first when the allowance is short.
   */
  readonly approval?: ApprovalMode;
  /** Permit deadline, UNIX seconds (default the quote's deadline). */
  readonly permitDeadline?: bigint;
}

/** What {@link sendTransfer} did. */
export interface SentTransfer {
  /** The transfer transaction's hash. */
  readonly hash: Hex;
  /** How the allowance was covered. */
  readonly approval: 'allowance' | 'permit' | 'approve';
  /** The approve transaction, when one was sent. */
  readonly approveHash?: Hex;
}

/** FiatToken v2's EIP-712 domain name and version (circlefin/stablecoin-evm), used for what a token does not report. */
const FIAT_TOKEN_DOMAIN = { name: 'USD Coin', version: '2' } as const;

async function permitDomain(client: PublicClient, usdc: Address, chainId: number) {
  try {
    const [, name, version, domainChainId, verifyingContract] = await client.readContract({
      address: usdc,
      abi: usdcAbi,
      functionName: 'eip712Domain',
    });
    return { name, version, chainId: Number(domainChainId), verifyingContract };
  } catch {
    // FiatToken (USDC) predates EIP-5267: its domain is name() and version(), FiatToken v2's
    // values where the token does not expose them; checked against DOMAIN_SEPARATOR() below.
  }
  const read = async (functionName: 'name' | 'version', fallback: string) => {
    try {
      return await client.readContract({ address: usdc, abi: usdcAbi, functionName });
    } catch {
      return fallback;
    }
  };
  const domain = {
    name: await read('name', FIAT_TOKEN_DOMAIN.name),
    version: await read('version', FIAT_TOKEN_DOMAIN.version),
    chainId,
    verifyingContract: usdc,
  };
  let separator: Hex | undefined;
  try {
    separator = await client.readContract({
      address: usdc,
      abi: usdcAbi,
      functionName: 'DOMAIN_SEPARATOR',
    });
  } catch {
    separator = undefined;
  }
  if (separator !== undefined && separator !== domainSeparator({ domain })) {
    throw new TransferInputError(
      'usdc',
      `cannot rebuild the token's EIP-712 domain (DOMAIN_SEPARATOR ${separator})`,
    );
  }
  return domain;
}

/**
 * Signs an EIP-2612 permit of `value` for `spender` with the wallet's account (EIP-712 typed data
 * over the token's domain and `nonces(owner)`).
 *
 * @returns the 65-byte signature as the deployed `PermitParams.signature` takes it.
 */
export async function signPermit(
  wallet: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  usdc: Address,
  spender: Address,
  value: bigint,
  deadline: bigint,
): Promise<Hex> {
  const owner = wallet.account.address;
  const chainId = await publicClient.getChainId();
  const [domain, nonce] = await Promise.all([
    permitDomain(publicClient, usdc, chainId),
    publicClient.readContract({
      address: usdc,
      abi: usdcAbi,
      functionName: 'nonces',
      args: [owner],
    }),
  ]);
  return wallet.signTypedData({
    account: wallet.account,
    domain,
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value, nonce, deadline },
  });
}

/**
 * Sends `plan` from `wallet`'s account: covers the USDC with the allowance, a permit or an approve,
 * simulates the call and sends it.
 *
 * @returns the transfer's transaction hash (not yet mined) and how the allowance was covered.
 * @throws {TransferInputError} when the wallet has no account.
 * @throws viem's `ContractFunctionExecutionError` when the simulation reverts (e.g.
 *   `DeadlineExpired`, `InvalidSignature`, `FeeExceedsAmount`), before any transaction is sent.
 */
export async function sendTransfer(
  wallet: WalletClient<Transport, Chain | undefined, Account | undefined>,
  plan: TransferPlan,
  options: SendOptions,
): Promise<SentTransfer> {
  const account = wallet.account;
  if (!account) throw new TransferInputError('walletClient', 'has no account');
  const signer = wallet as WalletClient<Transport, Chain | undefined, Account>;
  const { publicClient, contract } = options;
  const usdc =
    options.usdc ??
    (await publicClient.readContract({
      address: contract,
      abi: cashmereCctpAbi,
      functionName: 'usdc',
    }));
  const needed = plan.costs.userPaysUsdc;
  const mode = options.approval ?? 'auto';
  const allowance = await publicClient.readContract({
    address: usdc,
    abi: usdcAbi,
    functionName: 'allowance',
    args: [account.address, contract],
  });
  let approval: SentTransfer['approval'] = 'allowance';
  let approveHash: Hex | undefined;
  let permit: { value: bigint; deadline: bigint; signature: Hex } | undefined;
  if (mode === 'permit' || (mode === 'auto' && allowance < needed)) {
    const deadline = options.permitDeadline ?? plan.quote.deadline;
    const signature = await signPermit(signer, publicClient, usdc, contract, needed, deadline);
    permit = { value: needed, deadline, signature };
    approval = 'permit';
  } else if (allowance < needed) {
    const { request } = await publicClient.simulateContract({
      account,
      address: usdc,
      abi: usdcAbi,
      functionName: 'approve',
      args: [contract, needed],
      chain: wallet.chain,
    });
    approveHash = await signer.writeContract(request);
    await publicClient.waitForTransactionReceipt({ hash: approveHash });
    approval = 'approve';
  }
  const common = {
    account,
    address: contract,
    abi: cashmereCctpAbi,
    value: plan.value,
    chain: wallet.chain,
  } as const;
  let hash: Hex;
  if (plan.version === 1 && permit) {
    const { request } = await publicClient.simulateContract({
      ...common,
      functionName: 'transferWithPermit',
      args: [plan.params, permit],
    });
    hash = await signer.writeContract(request);
  } else if (plan.version === 1) {
    const { request } = await publicClient.simulateContract({
      ...common,
      functionName: 'transfer',
      args: [plan.params],
    });
    hash = await signer.writeContract(request);
  } else if (permit) {
    const { request } = await publicClient.simulateContract({
      ...common,
      functionName: 'transferV2WithPermit',
      args: [plan.params, permit],
    });
    hash = await signer.writeContract(request);
  } else {
    const { request } = await publicClient.simulateContract({
      ...common,
      functionName: 'transferV2',
      args: [plan.params],
    });
    hash = await signer.writeContract(request);
  }
  return { hash, approval, ...(approveHash ? { approveHash } : {}) };
}

/**
 * Reads the transfer contract's percentage fee, basis points (`state().feeBP`).
 */
export async function readContractFeeBps(
  publicClient: PublicClient,
  contract: Address,
): Promise<bigint> {
  const state = await publicClient.readContract({
    address: contract,
    abi: cashmereCctpAbi,
    functionName: 'state',
  });
  return BigInt(state[3]);
}
