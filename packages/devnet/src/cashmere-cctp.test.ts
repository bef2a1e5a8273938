/**
 * The devnet transfer contract on a local anvil chain behaves as the deployed `CashmereCCTP`
 * (cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`): it accepts a quote signed over the
 * compact packing (uint128 fee, uint64 deadline) and rejects the spec packing with
 * `InvalidSignature`; it keeps `feeBP` basis points of the amount plus the quoted fee
 * (`getFee`, `state().feeBP`); the permit variants pull with an EIP-2612 permit instead of an
 * allowance; `CashmereTransfer` decodes with the public signature.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signQuote } from '@ctss/signing';
import {
  BaseError,
  ContractFunctionRevertedError,
  getAddress,
  parseAbi,
  parseEventLogs,
  type Hex,
} from 'viem';
import { startAnvil, type Anvil } from './anvil.js';
import { cashmereCctpAbi } from './cashmere-abi.js';
import { CASHMERE_CCTP_SIGNATURES } from './cashmere-signatures.js';
import {
  DEVNET_FEE_BP,
  contract,
  deployCctpChain,
  makeTransfer,
  quoteSigner,
  withUser,
  type CctpChain,
} from './cctp-chain.js';

const RECIPIENT: Hex = '0x000000000000000000000000000000000000bEEF';
/** anvil's fifth default account (a well-known test key), which never approves the contract. */
const PERMIT_USER_KEY: Hex = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a';

let anvil: Anvil;
let chain: CctpChain;

beforeAll(async () => {
  anvil = await startAnvil(0, 31_090);
  chain = await deployCctpChain(anvil.url, 0, 31_090);
}, 300_000);

afterAll(async () => {
  await anvil?.stop();
});

async function balance(owner: Hex): Promise<bigint> {
  return (await chain.client.readContract({
    address: chain.usdc,
    abi: contract('TestUsdc').abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

describe('the devnet CashmereCCTP', () => {
  it('is set up as deployed: signer, percentage fee, domain, messengers', async () => {
    const [signer, nonce, maxUsdcGasDrop, feeBP, , paused] = await chain.client.readContract({
      address: chain.cashmere,
      abi: cashmereCctpAbi,
      functionName: 'state',
    });
    expect({ signer, nonce, maxUsdcGasDrop, feeBP, paused }).toEqual({
      signer: quoteSigner.address,
      nonce: 0,
      maxUsdcGasDrop: 100_000_000,
      feeBP: DEVNET_FEE_BP,
      paused: false,
    });
    const read = (functionName: 'tokenMessenger' | 'tokenMessengerV2' | 'usdc') =>
      chain.client
        .readContract({ address: chain.cashmere, abi: cashmereCctpAbi, functionName })
        .then(getAddress);
    await expect(
      chain.client.readContract({
        address: chain.cashmere,
        abi: cashmereCctpAbi,
        functionName: 'localDomain',
      }),
    ).resolves.toBe(0);
    expect(await read('tokenMessenger')).toBe(getAddress(chain.messengerV1));
    expect(await read('tokenMessengerV2')).toBe(getAddress(chain.messengerV2));
    expect(await read('usdc')).toBe(getAddress(chain.usdc));
    // 10 bps of 467.08 USDC plus a quoted 0.08 USDC: the demo's 547,080 base units.
    await expect(
      chain.client.readContract({
        address: chain.cashmere,
        abi: cashmereCctpAbi,
        functionName: 'getFee',
        args: [467_080_000n, 80_000n],
      }),
    ).resolves.toBe(547_080n);
  });

  it('accepts a compact-packed quote, burns amount - fees and emits CashmereTransfer', async () => {
    const before = await balance(chain.userAccount.address);
    const { receipt } = await makeTransfer(chain, {
      version: 2,
      destinationDomain: 3,
      amount: 10_000_000n,
      fee: 80_000n,
      gasDrop: 500_000n,
      recipient: RECIPIENT,
    });
    expect(before - (await balance(chain.userAccount.address))).toBe(10_000_000n);
    const [event] = parseEventLogs({
      abi: parseAbi(CASHMERE_CCTP_SIGNATURES),
      eventName: 'CashmereTransfer',
      logs: receipt.logs,
    });
    expect(event!.address).toBe(chain.cashmere.toLowerCase());
    expect(event!.args).toMatchObject({
      destinationDomain: 3,
      nonce: 0n,
      user: chain.userAccount.address,
      // 10,000,000 - (10 bps = 10,000) - 80,000 quoted - 500,000 gas drop.
      amount: 9_410_000n,
      gasDropAmount: 500_000n,
      isNative: false,
    });
  });

  it('rejects a quote signed over the spec packing with InvalidSignature', async () => {
    const deadline = (await chain.client.getBlock()).timestamp + 100n;
    const fields = {
      localDomain: 0,
      destinationDomain: 3,
      fee: 80_000n,
      deadline,
      isNative: false,
      cctpVersion: 1 as const,
    };
    const spec = signQuote(fields, 'spec', quoteSigner);
    const error = await makeTransfer(chain, {
      version: 1,
      destinationDomain: 3,
      amount: 10_000_000n,
      fee: 80_000n,
      recipient: RECIPIENT,
      quote: { deadline, signature: spec },
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    // The revert, simulated, names the deployed custom error.
    const simulated = await chain.client
      .simulateContract({
        address: chain.cashmere,
        abi: cashmereCctpAbi,
        functionName: 'transfer',
        account: chain.userAccount,
        args: [
          {
            amount: 10_000_000n,
            fee: 80_000n,
            deadline,
            gasDropAmount: 0n,
            destinationDomain: 3,
            recipient: `0x${'0'.repeat(64)}`,
            solanaOwner: `0x${'0'.repeat(64)}`,
            isNative: false,
            signature: spec,
          },
        ],
      })
      .catch((err: unknown) => err);
    const revert =
      simulated instanceof BaseError
        ? simulated.walk((e) => e instanceof ContractFunctionRevertedError)
        : undefined;
    expect((revert as ContractFunctionRevertedError | undefined)?.data?.errorName).toBe(
      'InvalidSignature',
    );
  });

  it.each([1, 2] as const)(
    'transfer%sWithPermit pulls with an EIP-2612 permit, without an allowance',
    async (version) => {
      const fresh = await withUser(chain, PERMIT_USER_KEY);
      // withUser approves; take the allowance back so only the permit can pay.
      await fresh.user.writeContract({
        address: chain.usdc,
        abi: contract('TestUsdc').abi,
        functionName: 'approve',
        args: [chain.cashmere, 0n],
        account: fresh.userAccount,
        chain: chain.chain,
      });
      const before = await balance(fresh.userAccount.address);
      await expect(
        makeTransfer(fresh, {
          version,
          destinationDomain: 3,
          amount: 5_000_000n,
          fee: 80_000n,
          gasDrop: 100_000n,
          recipient: RECIPIENT,
        }),
      ).rejects.toThrow();
      const { receipt } = await makeTransfer(fresh, {
        version,
        destinationDomain: 3,
        amount: 5_000_000n,
        fee: 80_000n,
        gasDrop: 100_000n,
        recipient: RECIPIENT,
        permit: true,
      });
      expect(receipt.status).toBe('success');
      // v1 pulls amount + USDC gas drop; v2 pulls amount.
      expect(before - (await balance(fresh.userAccount.address))).toBe(
        version === 1 ? 5_100_000n : 5_000_000n,
      );
    },
  );
});
