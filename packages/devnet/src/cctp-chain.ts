/**
 * The CCTP stand-in contracts (contracts/CctpTestChain.sol, compiled with solc-js) deployed on an anvil
 * chain as one CCTP domain: a bridge token, TokenMinter + TokenMessenger + MessageTransmitter for
 * v1 and v2 (emitting Circle's events in Circle's order: docs/indexer.md "Event order"), a batch
 * relayer, and two transfer contracts with the deployed `CashmereCCTP` ABI ({@link cashmereCctpAbi}:
 * one emitting the current `CashmereTransfer`, one the pre-2025-09-02 event), with helpers that
 * make transfers as a user would (quote signed like the gas quote API's with the compact packing
 * the deployed contract verifies, then the contract call, optionally with an EIP-2612 permit) and
 * that relay messages on the destination, one or several per transaction.
 */
import { readFileSync } from 'node:fs';
import { compileSolidityContracts, type CompiledContract } from '@ctss/test-support';
import { loadSecp256k1Signer, signQuote, type QuotePacking } from '@ctss/signing';
import { signPermit } from '@ctss/sdk';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseAbiItem,
  parseEventLogs,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { cashmereCctpAbi } from './cashmere-abi.js';

type TestChain = Chain;

/** CCTP MessageTransmitter `MessageSent(bytes message)` (docs/indexer.md "Events"). */
export const MESSAGE_SENT = parseAbiItem('event MessageSent(bytes message)');

// Resolved from src/ and dist/ alike: both sit next to contracts/.
const SOURCE = readFileSync(new URL('../contracts/CctpTestChain.sol', import.meta.url), 'utf8');
let compiled: Record<string, CompiledContract> | undefined;
/**
 * A contract of CctpTestChain.sol; the file is compiled once per process (solc-js blocks the
 * event loop for seconds per compile).
 *
 * @throws when the contract is not in the file.
 */
export function contract(name: string): CompiledContract {
  compiled ??= compileSolidityContracts('CctpTestChain.sol', SOURCE);
  const c = compiled[name];
  if (!c) throw new Error(`${name} is not in CctpTestChain.sol`);
  return c;
}

/** The contracts {@link deployCctpChain} deploys (all in CctpTestChain.sol). */
const CONTRACTS = [
  'TestUsdc',
  'TestMessageTransmitter',
  'TestTokenMinter',
  'TestTokenMessenger',
  'TestBatchRelayer',
  'CashmereCCTP',
  'CashmereCCTPLegacyEvent',
] as const;

/** anvil's first two default accounts (well-known test keys): deployer/relayer and user. */
export const DEPLOYER_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const USER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** The quote signer the transfer contracts trust (a fixed test key). */
export const QUOTE_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const quoteSigner = loadSecp256k1Signer(QUOTE_KEY);

/**
 * The quote packing the transfer contracts verify: `compact` (uint128 fee, uint64 deadline), as
 * the deployed `CashmereCCTP` rebuilds it (docs/decisions.md "D1. Quote packing per origin chain").
 */
export const DEVNET_QUOTE_PACKING: QuotePacking = 'compact';

/**
 * The Gas Quote API environment that makes its ECDSA quotes for origin `domains` verify on these
 * transfer contracts: `QUOTE_PACKING_<DOMAIN>=compact` for each (README "Configuration").
 */
export function devnetQuotePackingEnv(domains: readonly number[]): Record<string, string> {
  return Object.fromEntries(domains.map((d) => [`QUOTE_PACKING_${d}`, DEVNET_QUOTE_PACKING]));
}

/** Percentage fee the devnet transfer contracts are configured with (`setFeeBP`): 0.1 %. */
export const DEVNET_FEE_BP = 10;
/** Native gas drop limit set on the devnet transfer contracts (`setMaxNativeGasDrop`): 1 ether, wei. */
export const DEVNET_MAX_NATIVE_GAS_DROP = 10n ** 18n;

/** A deployed test chain. */
export interface CctpChain {
  readonly chain: TestChain;
  readonly domain: number;
  readonly url: string;
  readonly client: PublicClient;
  readonly deployer: WalletClient;
  readonly user: WalletClient;
  readonly userAccount: PrivateKeyAccount;
  readonly usdc: Address;
  readonly transmitterV1: Address;
  readonly transmitterV2: Address;
  /** TokenMessenger v1 and v2 (they emit `DepositForBurn` and `MintAndWithdraw`). */
  readonly messengerV1: Address;
  readonly messengerV2: Address;
  /** TokenMinter v1 and v2 (the token's minters; they hold and burn deposits). */
  readonly minterV1: Address;
  readonly minterV2: Address;
  /** A relayer contract receiving several messages in one transaction ({@link receiveMessages}). */
  readonly batchRelayer: Address;
  /** Transfer contract (deployed `CashmereCCTP` ABI) emitting the current `CashmereTransfer`. */
  readonly cashmere: Address;
  /** The same ABI, emitting the pre-2025-09-02 `CashmereTransfer` (uint256 amount). */
  readonly cashmereLegacy: Address;
  /** Block of the first transfer contract deployment. */
  readonly startBlock: number;
}

async function deploy(
  chain: TestChain,
  wallet: WalletClient,
  client: PublicClient,
  name: string,
  args: unknown[],
): Promise<Address> {
  const c = contract(name);
  const hash = await wallet.deployContract({
    abi: c.abi,
    bytecode: c.bytecode,
    args,
    account: wallet.account!,
    chain,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return receipt.contractAddress!;
}

async function call(
  chain: TestChain,
  wallet: WalletClient,
  client: PublicClient,
  address: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
  value = 0n,
): Promise<TransactionReceipt> {
  const hash = await wallet.writeContract({
    address,
    abi,
    functionName,
    args,
    value,
    account: wallet.account!,
    chain,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${functionName} reverted`);
  return receipt;
}

/**
 * Deploys the contracts on the chain at `url` as CCTP domain `domain`, mints 10^15 base units of
 * the bridge token to the user account and approves both transfer contracts.
 *
 * @throws when a deployment transaction fails.
 */
export async function deployCctpChain(
  url: string,
  domain: number,
  chainId: number,
): Promise<CctpChain> {
  // Compile every contract before the first request: a solc-js compile blocks the event loop for
  // seconds, and one run while a request is in flight (a second chain deployed concurrently)
  // can outlast the request's timeout.
  for (const name of CONTRACTS) contract(name);
  const chain: TestChain = { ...foundry, id: chainId };
  const client = createPublicClient({ chain, transport: http(url) });
  const deployerAccount = privateKeyToAccount(DEPLOYER_KEY);
  const userAccount = privateKeyToAccount(USER_KEY);
  const deployer = createWalletClient({ account: deployerAccount, chain, transport: http(url) });
  const user = createWalletClient({ account: userAccount, chain, transport: http(url) });
  const usdcAbi = contract('TestUsdc').abi;
  const mtAbi = contract('TestMessageTransmitter').abi;
  const usdc = await deploy(chain, deployer, client, 'TestUsdc', []);
  const minterAbi = contract('TestTokenMinter').abi;
  const messengers: Address[] = [];
  const transmitters: Address[] = [];
  const minters: Address[] = [];
  for (const version of [1, 2]) {
    const mt = await deploy(chain, deployer, client, 'TestMessageTransmitter', [domain, version]);
    const minter = await deploy(chain, deployer, client, 'TestTokenMinter', [usdc]);
    const tm = await deploy(chain, deployer, client, 'TestTokenMessenger', [mt, usdc, minter]);
    await call(chain, deployer, client, mt, mtAbi, 'setTokenMessenger', [tm]);
    await call(chain, deployer, client, minter, minterAbi, 'setTokenMessenger', [tm]);
    await call(chain, deployer, client, usdc, usdcAbi, 'addMinter', [minter]);
    messengers.push(tm);
    transmitters.push(mt);
    minters.push(minter);
  }
  const batchRelayer = await deploy(chain, deployer, client, 'TestBatchRelayer', []);
  const startBlock = Number(await client.getBlockNumber({ cacheTime: 0 })) + 1;
  // As the deployed contract is set up: constructor (messengers, token), then the admin sets the
  // quote signer, the percentage fee and the native gas drop limit.
  const cashmereArgs = [messengers[0], messengers[1], usdc];
  const cashmere = await deploy(chain, deployer, client, 'CashmereCCTP', cashmereArgs);
  const cashmereLegacy = await deploy(
    chain,
    deployer,
    client,
    'CashmereCCTPLegacyEvent',
    cashmereArgs,
  );
  for (const c of [cashmere, cashmereLegacy]) {
    const admin = (functionName: string, args: unknown[]) =>
      call(chain, deployer, client, c, cashmereCctpAbi, functionName, args);
    await admin('setSigner', [quoteSigner.address]);
    await admin('setFeeBP', [DEVNET_FEE_BP]);
    await admin('setMaxNativeGasDrop', [DEVNET_MAX_NATIVE_GAS_DROP]);
  }
  await call(chain, deployer, client, usdc, usdcAbi, 'mint', [userAccount.address, 10n ** 15n]);
  for (const c of [cashmere, cashmereLegacy]) {
    await call(chain, user, client, usdc, usdcAbi, 'approve', [c, 2n ** 256n - 1n]);
  }
  return {
    chain,
    domain,
    url,
    client,
    deployer,
    user,
    userAccount,
    usdc,
    transmitterV1: transmitters[0]!,
    transmitterV2: transmitters[1]!,
    messengerV1: messengers[0]!,
    messengerV2: messengers[1]!,
    minterV1: minters[0]!,
    minterV2: minters[1]!,
    batchRelayer,
    cashmere,
    cashmereLegacy,
    startBlock,
  };
}

/**
 * The chain as seen by another user: the account of `key` (32-byte secp256k1 private key, hex)
 * gets 10^15 base units of the bridge token minted and 10 ETH of gas (anvil_setBalance), and
 * approves both transfer contracts, so {@link makeTransfer} on the returned chain sends from it.
 *
 * @throws when a transaction fails.
 */
export async function withUser(chain: CctpChain, key: Hex): Promise<CctpChain> {
  const userAccount = privateKeyToAccount(key);
  const user = createWalletClient({
    account: userAccount,
    chain: chain.chain,
    transport: http(chain.url),
  });
  await chain.client.request({
    method: 'anvil_setBalance' as never,
    params: [userAccount.address, `0x${(10n ** 19n).toString(16)}`] as never,
  });
  const usdcAbi = contract('TestUsdc').abi;
  const { deployer, client, usdc } = chain;
  await call(chain.chain, deployer, client, usdc, usdcAbi, 'mint', [
    userAccount.address,
    10n ** 15n,
  ]);
  for (const spender of [chain.cashmere, chain.cashmereLegacy]) {
    await call(chain.chain, user, client, usdc, usdcAbi, 'approve', [spender, 2n ** 256n - 1n]);
  }
  return { ...chain, user, userAccount };
}

/**
 * anvil's tenth default account (a well-known test key, funded with 10,000 ETH at genesis), used
 * by `pnpm demo` for relaying only, so its receives never race another sender for a nonce.
 */
export const RELAYER_KEY: Hex =
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';

/** A wallet on `chain` sending from the account of `key` (32-byte secp256k1 key, hex). */
export function relayerWallet(chain: CctpChain, key: Hex = RELAYER_KEY): WalletClient {
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: chain.chain,
    transport: http(chain.url),
  });
}

/** A quote signed elsewhere (the Gas Quote API's `/getEcdsaSig_native` answer, parsed). */
export interface SignedQuote {
  /** UNIX seconds. */
  readonly deadline: bigint;
  /** 65 bytes, `r || s || v`. */
  readonly signature: Hex;
}

/**
 * A transfer as the user makes it. Amounts in base units (fee in wei when native; gas drop in
 * bridge asset base units, or wei when native). Without `quote`, the quote is signed here with
 * {@link QUOTE_KEY} over the {@link DEVNET_QUOTE_PACKING}, deadline = block time + 100 s.
 */
export interface TransferInput {
  readonly version: 1 | 2;
  readonly destinationDomain: number;
  /** `amount` of the transfer parameters (uint64): what is pulled (v1: plus the USDC gas drop). */
  readonly amount: bigint;
  readonly fee: bigint;
  readonly gasDrop?: bigint;
  readonly isNative?: boolean;
  readonly recipient: Hex;
  /** Solana token account owner for a Solana destination (32 bytes); zero otherwise. */
  readonly solanaOwner?: Hex;
  readonly maxFee?: bigint;
  /** v2: the burn's `minFinalityThreshold` (1000 = fast, 2000 = standard; default 2000). */
  readonly minFinalityThreshold?: number;
  readonly legacy?: boolean;
  readonly quote?: SignedQuote;
  /**
   * Call `transferWithPermit` / `transferV2WithPermit` with an EIP-2612 permit for exactly what
   * the transfer pulls, signed here by the user (deadline = quote deadline), instead of relying
   * on an allowance.
   */
  readonly permit?: boolean;
}

const ZERO32: Hex = `0x${'0'.repeat(64)}`;

/** A 20-byte address or 32-byte value as the bytes32 the contract takes (left-padded). */
function toBytes32(value: Hex): Hex {
  return `0x${value.slice(2).toLowerCase().padStart(64, '0')}`;
}

/**
 * The EIP-2612 permit (FiatToken v2.2 `permit(owner, spender, value, deadline, bytes signature)`)
 * of the user for `spender`, as `PermitParams`, signed by the SDK's `signPermit` (the one a widget
 * uses).
 */
async function userPermit(
  chain: CctpChain,
  spender: Address,
  value: bigint,
  deadline: bigint,
): Promise<{ value: bigint; deadline: bigint; signature: Hex }> {
  const wallet = createWalletClient({
    account: chain.userAccount,
    chain: chain.chain,
    transport: http(chain.url),
  });
  const signature = await signPermit(wallet, chain.client, chain.usdc, spender, value, deadline);
  return { value, deadline, signature };
}

/**
 * Makes a transfer (`transfer` for v1, `transferV2` for v2, or their `WithPermit` variants) from
 * the user account on a transfer contract with the deployed `CashmereCCTP` ABI, and waits for its
 * receipt.
 *
 * @returns the receipt and the CCTP message of its `MessageSent` log.
 * @throws when the transaction reverts (e.g. an expired deadline or a quote signed by another key).
 */
export async function makeTransfer(
  chain: CctpChain,
  t: TransferInput,
): Promise<{ receipt: TransactionReceipt; message: Hex }> {
  const isNative = t.isNative ?? false;
  const gasDrop = t.gasDrop ?? 0n;
  const deadline = t.quote?.deadline ?? (await chain.client.getBlock()).timestamp + 100n;
  const signature =
    t.quote?.signature ??
    signQuote(
      {
        localDomain: chain.domain,
        destinationDomain: t.destinationDomain,
        fee: t.fee,
        deadline,
        isNative,
        cctpVersion: t.version,
      },
      DEVNET_QUOTE_PACKING,
      quoteSigner,
    );
  const address = t.legacy ? chain.cashmereLegacy : chain.cashmere;
  const value = isNative ? t.fee + gasDrop : 0n;
  const common = {
    amount: t.amount,
    fee: t.fee,
    deadline,
    gasDropAmount: gasDrop,
    destinationDomain: t.destinationDomain,
    recipient: toBytes32(t.recipient),
    solanaOwner: t.solanaOwner ? toBytes32(t.solanaOwner) : ZERO32,
    isNative,
    signature,
  };
  const params =
    t.version === 1
      ? common
      : {
          ...common,
          maxFee: t.maxFee ?? 0n,
          minFinalityThreshold: t.minFinalityThreshold ?? 2000,
          hookData: '0x',
        };
  const base = t.version === 1 ? 'transfer' : 'transferV2';
  let functionName: string = base;
  const args: unknown[] = [params];
  if (t.permit) {
    const pulled = t.amount + (t.version === 1 && !isNative ? gasDrop : 0n);
    args.push(await userPermit(chain, address, pulled, deadline));
    functionName = `${base}WithPermit`;
  }
  const receipt = await call(
    chain.chain,
    chain.user,
    chain.client,
    address,
    cashmereCctpAbi,
    functionName,
    args,
    value,
  );
  const [sent] = parseEventLogs({ abi: [MESSAGE_SENT], logs: receipt.logs });
  return { receipt, message: sent!.args.message };
}

/**
 * Relays a message on the destination chain through the MessageTransmitter of `version`, from
 * `relayer` (default the deployer account; the test transmitter does not check the attestation
 * or the caller). A relayer sending while another process sends from the same account races it
 * for the account's nonce: give each sender its own account ({@link relayerWallet}).
 *
 * @throws when the transaction reverts.
 */
export async function receiveMessage(
  chain: CctpChain,
  version: 1 | 2,
  message: Hex,
  relayer: WalletClient = chain.deployer,
): Promise<TransactionReceipt> {
  return call(
    chain.chain,
    relayer,
    chain.client,
    version === 1 ? chain.transmitterV1 : chain.transmitterV2,
    contract('TestMessageTransmitter').abi,
    'receiveMessage',
    [message, '0x'],
  );
}

/**
 * Relays several messages of one CCTP version in ONE destination transaction through the batch
 * relayer, in order (the receipt holds each message's mint, `MintAndWithdraw` and
 * `MessageReceived` in turn), from the deployer account.
 *
 * @throws when the transaction reverts (e.g. a nonce already used).
 */
export async function receiveMessages(
  chain: CctpChain,
  version: 1 | 2,
  messages: readonly Hex[],
): Promise<TransactionReceipt> {
  return call(
    chain.chain,
    chain.deployer,
    chain.client,
    chain.batchRelayer,
    contract('TestBatchRelayer').abi,
    'receiveMessages',
    [version === 1 ? chain.transmitterV1 : chain.transmitterV2, messages, messages.map(() => '0x')],
  );
}
